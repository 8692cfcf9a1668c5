/** The request header proxy.ts sets to the page's path, for the root layout (a layout gets no pathname of its own). */
export const PAGE_PATH_HEADER = 'x-paybase-page-path';
