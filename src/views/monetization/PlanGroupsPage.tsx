/** Monetization › Plan groups: ordered groups of plans as a paywall shows them; the groups themselves are reordered here too. */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectEditorData, selectEditorId } from '../../../machines/editor.machine';
import { selectListRows } from '../../../machines/list.machine';
import { selectActionRunning } from '../../../machines/page-action.machine';
import { PLAN_STATUS_WORDS, statusWord } from '../../../common/status-words';
import { PLAN_GROUP_ACTIONS, planGroupOrder, type Plan, type PlanGroup } from '../../../common/monetization-contract';
import { NEW_RECORD_ID, selectPageActions, selectPageEditor, selectPageHistory, selectPageList } from '../../../machines/list-page.machine';
import { usePageActor } from '../../page-actors';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import * as ui from '../../theme/ui.css';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import * as historyCss from '../shared/history.css';
import { ActionOutcome } from './ActionOutcome';
import { EditorPanel } from './EditorPanel';
import { OrderedList, TextField } from './EditorFields';
import { ListTable } from './ListTable';
import * as css from './monetization.css';
import { listStartOf, useCanEditMonetization, useOpenFromAddress, type EditorRef } from './page-refs';

const ROUTE = '/monetization/planGroups';

export function PlanGroupEditor({ editor, canEdit }: { editor: EditorRef; canEdit: boolean }) {
  useEditorLeaveGuard(editor);
  const creating = useSelector(editor, selectEditorId) === NEW_RECORD_ID;
  const plans = useSelector(editor, (s) => (selectEditorData(s) as { plans?: Plan[] } | null)?.plans ?? []);
  return (
    <EditorPanel editor={editor} title={creating ? 'New plan group' : 'Edit plan group'} canEdit={canEdit}>
      <TextField editor={editor} field="name" label="Name" required disabled={!canEdit} />
      <TextField editor={editor} field="description" label="Description" multiline disabled={!canEdit} />
      <OrderedList editor={editor} field="planIds" label="Plans, in paywall order" disabled={!canEdit}
        options={plans.map((p) => ({ value: p.id, label: `${p.name} (${statusWord(PLAN_STATUS_WORDS, p.status)})` }))} />
    </EditorPanel>
  );
}

export function PlanGroupsPage() {
  const address = getRouteApi('/protected/monetization/planGroups').useSearch();
  const { edit } = address;
  const canEdit = useCanEditMonetization();
  const page = usePageActor('planGroups', { input: { ...listStartOf(address, [], []), history: 'planGroup', ...(edit ? { open: edit } : {}) } });
  useOpenFromAddress(page, edit);
  const list = useSelector(page, selectPageList);
  const actions = useSelector(page, selectPageActions);
  const editor = useSelector(page, selectPageEditor);
  const history = useSelector(page, selectPageHistory);
  const moving = useSelector(actions, selectActionRunning) !== null;
  const groups = useSelector(list, selectListRows<PlanGroup>);
  const count = groups.length;
  const place = (g: PlanGroup) => groups.findIndex((x) => x.id === g.id);
  // The order sent is the one on screen, with the versions read.
  const move = (g: PlanGroup, to: number) => actions.send({ type: 'action.request', name: PLAN_GROUP_ACTIONS.move, args: { id: g.id, to, order: planGroupOrder(groups) }, label: g.name });
  return (
    <div className={ui.page}>
      <h1 className={ui.pageTitle}>Plan groups</h1>
      <ActionOutcome actions={actions} />
      {canEdit && count > 1 && <p className={css.muted}>Move a group with its arrows, or focus an arrow and press Alt+↑ / Alt+↓.</p>}
      <div className={editor ? css.layout : css.listOnly}>
        <ListTable<PlanGroup>
          list={list} label="Plan groups"
          tools={canEdit && <Link to={ROUTE} search={{ edit: NEW_RECORD_ID }} className={ui.button.primary}>New plan group</Link>}
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
        {editor && (
          <div className={historyCss.editorColumn}>
            <PlanGroupEditor key={editor.sessionId} editor={editor} canEdit={canEdit} />
            {history && <EditorHistoryPanel key={history.sessionId} history={history} editor={editor} />}
          </div>
        )}
      </div>
    </div>
  );
}
