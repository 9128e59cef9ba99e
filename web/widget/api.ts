/** The widget API of this page's server, as the visitor of the session token. */
export class WidgetApi {
  constructor(
    private readonly websiteToken: string,
    public authToken: string,
  ) {}

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `/api/v1/widget${path}${path.includes("?") ? "&" : "?"}website_token=${encodeURIComponent(this.websiteToken)}`;
    const isForm = body instanceof FormData;
    const response = await fetch(url, {
      method,
      headers: { "X-Auth-Token": this.authToken, ...(body === undefined || isForm ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
