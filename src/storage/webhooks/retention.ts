/** Finished messages stay in the delivery log this long (a TTL index removes them). */
export const FINISHED_RETENTION_DAYS = 7;
