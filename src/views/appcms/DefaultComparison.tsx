/**
 * What "Copy from default" would change on this network: each brand or settings field whose value
 * differs from the default network's, this network's value beside the default's (the copy would
 * replace the first with the second).
 */
import { useSelector } from '@xstate/react';
import { APPCMS_MESSAGES, type DiffEntry } from '../../../common/appcms';
import { selectListError, selectListIsLoading, selectListRows } from '../../../machines/list.machine';
import * as css from './appcms.css';
import type { ComparisonRef } from './appcms-page';
import { ScrollBox } from '../shared/ScrollBox';

export function DefaultComparison({ list, part }: { list: ComparisonRef; part: 'brand' | 'settings' }) {
  const rows = useSelector(list, (s) => selectListRows<DiffEntry & { id: string }>(s));
  const loading = useSelector(list, selectListIsLoading);
  const error = useSelector(list, selectListError);
  return (
    <section className={css.card} aria-label="Compared with the default network" data-testid={`copy-preview-${part}`}>
      <h2 className={css.cardTitle}>What Copy from default would change</h2>
      {loading && <p role="status">Comparing with the default network…</p>}
      {error && <p role="alert" className={css.contrastLow}>{error}</p>}
      {!loading && !error && rows.length === 0 && <p>{APPCMS_MESSAGES.noChanges}</p>}
      {rows.length > 0 && (
        <ScrollBox className={css.tableScroll} label="What Copy from default would change"><table className={css.diffTable}>
          <thead><tr><th className={css.headCell}>Field</th><th className={css.headCell}>This network</th><th className={css.headCell}>Default (after copy)</th></tr></thead>
          <tbody>{rows.map((r) => <tr key={r.id}><td className={css.cell}>{r.label}</td><td className={css.cell}>{r.from}</td><td className={css.cell}>{r.to}</td></tr>)}</tbody>
        </table></ScrollBox>
      )}
    </section>
  );
}
