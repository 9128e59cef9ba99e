/** The launcher and frame holder on the host page; every rule is scoped to the SDK's own classes. */
export function sdkStyles(position: "left" | "right"): string {
  return `
.cw-bubble{position:fixed;bottom:20px;${position}:20px;width:60px;height:60px;border-radius:50%;border:0;cursor:pointer;
  background:var(--cw-widget-color,#1f93ff);box-shadow:0 4px 16px rgba(0,0,0,.2);z-index:2147483000;display:flex;align-items:center;justify-content:center}
.cw-bubble:focus-visible{outline:3px solid #111;outline-offset:3px}
.cw-bubble svg{width:28px;height:28px;fill:#fff}
.cw-bubble[hidden]{display:none}
.cw-holder{position:fixed;bottom:96px;${position}:20px;width:400px;max-width:calc(100vw - 40px);height:640px;max-height:calc(100vh - 120px);
  border-radius:16px;overflow:hidden;box-shadow:0 8px 32px rgba(0,0,0,.25);z-index:2147483000;background:#fff}
.cw-holder[hidden]{display:none}
.cw-holder iframe{border:0;width:100%;height:100%}
.cw-holder.cw-unread{height:200px;max-height:200px;width:340px;background:transparent;box-shadow:none;border-radius:0}
@media (max-width:480px){.cw-holder:not(.cw-unread){inset:0;width:100%;max-width:none;height:100%;max-height:none;border-radius:0}}
`;
}

export const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.6 3.4 6.1L4.5 21l4.3-2.3c1 .3 2.1.4 3.2.4 5.5 0 10-3.6 10-8.1S17.5 3 12 3z"/></svg>';
export const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3z"/></svg>';
