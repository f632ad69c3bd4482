/** WEBHOOK_RETENTION_DAYS. */
export abstract class RetentionSettings {
  abstract readonly retentionDays: number;
}
