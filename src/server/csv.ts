/** The CSV cells of the server's downloads are the shared ones, which the browser writes too. */
export { csvCell, csvRow } from '../shared/csv.ts';
