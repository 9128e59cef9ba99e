import { BaseModel } from "./BaseModel";

export interface DashboardAppFrame {
  type: "frame";
  url: string;
  [key: string]: unknown;
}

/** A page the account shows in an iframe tab beside conversations (Chatwoot's DashboardApp). */
export class DashboardApp extends BaseModel {
  static tableName = "dashboard_apps";
  static jsonAttributes = ["content"];

  declare account_id: number;
  declare user_id: number | null;
  declare title: string;
  declare content: DashboardAppFrame[];
}
