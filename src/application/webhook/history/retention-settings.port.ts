/** WEBHOOK_RETENTION_DAYS and PAGE_SESSION_RETENTION_DAYS (null: sessions are kept). */
export abstract class RetentionSettings {
  abstract readonly retentionDays: number;
  abstract readonly sessionRetentionDays: number | null;
}
