/** The answer of a page action (plan deleted or archived, duplicated, codes exported) or its failure, with a way to dismiss it. */
import { useSelector } from '@xstate/react';
import { selectActionError, selectActionMessage } from '../../../machines/page-action.machine';
import * as ui from '../../theme/ui.css';
import * as css from './monetization.css';
import type { PageActionRef } from './page-refs';

export function ActionOutcome({ actions }: { actions: PageActionRef }) {
  const message = useSelector(actions, selectActionMessage);
  const error = useSelector(actions, selectActionError);
  if (!message && !error) return null;
  return (
    <div className={error ? css.outcomeError : css.outcome} role={error ? 'alert' : 'status'}>
      <span>{error ?? message}</span>
      <button type="button" className={ui.button.ghost} onClick={() => actions.send({ type: 'action.dismiss' })}>Dismiss</button>
    </div>
  );
}
