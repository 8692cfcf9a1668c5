/** The channel a change that queues webhook deliveries notifies; dispatchers LISTEN on it. */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';
