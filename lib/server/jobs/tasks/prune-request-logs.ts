import type { Task } from 'graphile-worker';
import { getDb } from '../../../db/client';
import { pruneRequestLogs } from '../../../request-logs/request-logs';

export const pruneRequestLogsTask: Task = async (_payload, helpers) => {
  const removed = await pruneRequestLogs(getDb());
  if (removed) helpers.logger.info(`removed ${removed} API request logs past their retention`);
};
