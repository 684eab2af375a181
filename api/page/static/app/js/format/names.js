// An evening's name as this reader reads it. A competition's table was named when its round was drawn, in the
// organiser's language ("Spring cup: round 3, table 1"); its phones say which table it is in their own.

import {t} from '../i18n.js';

/** The evening's name, a competition's table by its competition, round and table (`data.competition`). */
export function eveningName(data) {
  const table = data?.competition;
  return table ? t('comp_table_where', {name: table.name, round: table.round, table: table.table}) : data?.name;
}
