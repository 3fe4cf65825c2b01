/** Monetization › Plan groups: ordered groups of plans as a paywall shows them; the groups themselves are reordered here too. */
import { Link, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectEditorData, selectEditorId } from '../../../machines/editor.machine';
import { selectListRows } from '../../../machines/list.machine';
import { selectActionRunning } from '../../../machines/page-action.machine';
import { NEW_ID, PLAN_GROUP_ACTIONS } from '../../adapters/monetization-actors';
import type { Plan, PlanGroup } from '../../api/monetization';
import * as ui from '../../theme/ui.css';
import { ActionOutcome } from './ActionOutcome';
import { EditorPanel } from './EditorPanel';
import { OrderedList, TextField } from './EditorFields';
import { ListTable } from './ListTable';
import * as css from './monetization.css';
import { useCanEditMonetization, useEditorKey, useMonetizationActions, useMonetizationEditor, useMonetizationList, type ListRef } from './use-monetization';

const ROUTE = '/monetization/planGroups';

export function PlanGroupEditor({ id, canEdit, list }: { id: string; canEdit: boolean; list: ListRef }) {
  const editor = useMonetizationEditor('planGroup', id, ROUTE, list);
  const creating = useSelector(editor, selectEditorId) === NEW_ID;
  const plans = useSelector(editor, (s) => (selectEditorData(s) as { plans?: Plan[] } | null)?.plans ?? []);
  return (
    <EditorPanel editor={editor} title={creating ? 'New plan group' : 'Edit plan group'} canEdit={canEdit}>
      <TextField editor={editor} field="name" label="Name" required disabled={!canEdit} />
      <TextField editor={editor} field="description" label="Description" multiline disabled={!canEdit} />
      <OrderedList editor={editor} field="planIds" label="Plans, in paywall order" disabled={!canEdit}
        options={plans.map((p) => ({ value: p.id, label: `${p.name} (${p.status})` }))} />
    </EditorPanel>
  );
}

export function PlanGroupsPage() {
  const { edit } = useSearch({ strict: false }) as { edit?: string };
  const editorKey = useEditorKey(edit);
  const canEdit = useCanEditMonetization();
  const list = useMonetizationList('planGroups');
  const actions = useMonetizationActions('planGroups', list);
  const moving = useSelector(actions, selectActionRunning) !== null;
  const groups = useSelector(list, selectListRows<PlanGroup>);
  const count = groups.length;
  const place = (g: PlanGroup) => groups.findIndex((x) => x.id === g.id);
  const move = (g: PlanGroup, to: number) => actions.send({ type: 'action.request', name: PLAN_GROUP_ACTIONS.move, args: { id: g.id, to }, label: g.name });
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Plan groups</h1>
      <ActionOutcome actions={actions} />
      {canEdit && count > 1 && <p className={css.muted}>Move a group with its arrows, or focus an arrow and press Alt+↑ / Alt+↓.</p>}
      <div className={editorKey ? css.layout : css.listOnly}>
        <ListTable<PlanGroup>
          list={list} label="Plan groups"
          tools={canEdit && <Link to={ROUTE} search={{ edit: NEW_ID }} className={ui.button.primary}>New plan group</Link>}
          columns={[
            { title: 'Position', cell: (g) => place(g) + 1 },
            { title: 'Name', cell: (g) => <Link to={ROUTE} search={{ edit: g.id }} className={css.rowLink}>{g.name}</Link> },
            { title: 'Plans', cell: (g) => g.planIds.length },
            ...(canEdit ? [{
              title: 'Order',
              cell: (g: PlanGroup) => (
                <span
                  className={css.rowActions}
                  onKeyDown={(e) => {
                    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
                    e.preventDefault();
                    const to = place(g) + (e.key === 'ArrowUp' ? -1 : 1);
                    if (to >= 0 && to < count) move(g, to);
                  }}
                >
                  <button type="button" className={ui.button.ghost} aria-label={`Move ${g.name} up`} disabled={moving || place(g) === 0} onClick={() => move(g, place(g) - 1)}>↑</button>
                  <button type="button" className={ui.button.ghost} aria-label={`Move ${g.name} down`} disabled={moving || place(g) === count - 1} onClick={() => move(g, place(g) + 1)}>↓</button>
                </span>
              ),
            }] : []),
          ]}
        />
        {editorKey && <PlanGroupEditor key={editorKey} id={editorKey} canEdit={canEdit} list={list} />}
      </div>
    </div>
  );
}
