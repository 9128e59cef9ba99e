import type { DashboardApp } from "../models/DashboardApp";

/** app/views/api/v1/accounts/dashboard_apps/_dashboard_app.json.jbuilder */
export function presentDashboardApp(app: DashboardApp) {
  return { id: app.id, title: app.title, content: app.content, created_at: app.created_at.toISOString() };
}
