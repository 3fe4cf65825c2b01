/**
 * The header's network switcher (spec §1, §4.6): every network of the site with its logo, name and
 * a launched / not-launched mark, the current one highlighted; Launch and "Copy brand / settings
 * from default" for the current network, each confirmed in a dialog. Everything it shows comes from
 * the `network` actor's snapshot; everything it does is an event sent to it. Launch and Copy show only
 * where the machine says they can be used (a role that may edit; Launch not on a launched network).
 * Escape closes the panel and focus goes back to its trigger, which a dialog then returns focus to.
 */
import { useSelector } from '@xstate/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { NetworkActorRef, PendingChange } from '../../../machines/network.machine';
import {
  selectCanCopy, selectCanWithdraw, selectCanLaunch, selectChangeActor, selectCurrentNetwork, selectDefaultNetworkRefusal, selectIsFetching,
  selectLastChangeActor, selectNetworks, selectPendingChange,
} from '../../../machines/network.machine';
import {
  selectChangeAsking, selectChangeCopyPreview, selectChangeReadiness, selectChangeRunning, type NetworkChangeRef,
} from '../../../machines/network-change.machine';
import { selectIsUndoingLasting, selectLastingChange, type LastingUndoRef } from '../../../machines/lasting-undo.machine';
import { OWN_MESSAGES } from '../../../common/messages';
import { LAUNCH_READINESS_TEXT } from '../../../common/appcms';
import { useAppActor } from '../../app-actor';
import type { Network } from '../../../common/contract';
import { button } from '../../theme/ui.css';
import { Modal } from '../shared/Modal';
import { useShellText, type ShellText } from '../shared/shell-text';
import * as css from './network.css';

function Mark({ network, shell }: { network: Network; shell: ShellText }) {
  if (network.isDefault) return <span className={css.mark.default}>{shell.networkDefault}</span>;
  return network.isActive
    ? <span className={css.mark.launched} data-testid="network-mark">{shell.networkLaunched}</span>
    : <span className={css.mark.notLaunched} data-testid="network-mark">{shell.networkNotLaunched}</span>;
}

/** What the pending copy would change: each field, this network's value and the default's. */
function CopyChanges({ change, shell }: { change: NetworkChangeRef | undefined; shell: ShellText }) {
  const preview = useSelector(change, selectChangeCopyPreview);
  if (!preview) return null;
  if (preview.phase === 'comparing') return <p role="status">{shell.networkCopyComparing}</p>;
  if (preview.phase === 'failed') return <p role="alert">{shell.networkCopyCompareFailed}</p>;
  if (preview.changes.length === 0) return <p>{shell.networkCopyNoChanges}</p>;
  return (
    <>
      <p>{shell.networkCopyChanges(preview.changes.length)}</p>
      {/* It scrolls when long or wide, so it takes keyboard focus (arrows scroll it). */}
      <div className={css.changes} tabIndex={0} role="region" aria-label={shell.networkChangesTable}>
        <table className={css.changeTable} aria-label={shell.networkChangesTable}>
          <thead><tr><th scope="col">{shell.networkChangeField}</th><th scope="col">{shell.networkChangeNow}</th><th scope="col">{shell.networkChangeAfter}</th></tr></thead>
          <tbody>
            {preview.changes.map((change) => (
              <tr key={change.field}><th scope="row">{change.label}</th><td>{change.from}</td><td>{change.to}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** What the network to launch lacks (issue 30), read before the launch can be confirmed. */
function LaunchReadiness({ change, name }: { change: NetworkChangeRef | undefined; name: string }) {
  const readiness = useSelector(change, selectChangeReadiness);
  if (!readiness) return null;
  if (readiness.phase === 'checking') return <p role="status">{LAUNCH_READINESS_TEXT.checking}</p>;
  if (readiness.phase === 'failed') return <p role="alert">{LAUNCH_READINESS_TEXT.failed}</p>;
  if (readiness.gaps.length === 0) return <p role="status">{LAUNCH_READINESS_TEXT.ready(name)}</p>;
  return (
    <div role="alert">
      <p>{LAUNCH_READINESS_TEXT.lacks(name)}</p>
      <ul className={css.gaps} aria-label={LAUNCH_READINESS_TEXT.list} data-testid="launch-gaps">
        {readiness.gaps.map((gap) => <li key={gap}>{LAUNCH_READINESS_TEXT.gap[gap]}</li>)}
      </ul>
      <p>{LAUNCH_READINESS_TEXT.decide}</p>
    </div>
  );
}

/**
 * Issue 38: the last launch, withdrawal or copy, offered to undo here for as long as the server accepts it
 * (its message went after 3 seconds, spec §4.6).
 */
function LastChangeOffer({ actor, onUndo }: { actor: LastingUndoRef; onUndo: () => void }) {
  const change = useSelector(actor, selectLastingChange);
  const undoing = useSelector(actor, selectIsUndoingLasting);
  if (!change) return null;
  return (
    <div className={css.lastChange} data-testid="network-last-change">
      <p>{change.text} {OWN_MESSAGES.networkUndoLastHint}</p>
      <button type="button" className={button.secondary} data-testid="network-undo-last" disabled={undoing} onClick={onUndo}>
        {undoing ? OWN_MESSAGES.networkUndoingLast : change.label}
      </button>
    </div>
  );
}

function confirmationText(pending: PendingChange | null, shell: ShellText): { title: string; body: string; action: string } {
  if (pending?.kind === 'withdraw') {
    return { title: OWN_MESSAGES.networkWithdrawTitle, body: OWN_MESSAGES.networkWithdrawConfirm(pending.name), action: OWN_MESSAGES.networkWithdraw };
  }
  if (pending?.kind === 'copy') {
    return {
      title: shell.networkCopyTitle(pending.what),
      body: shell.networkCopyConfirm(pending.what, pending.defaultName, pending.name),
      action: shell.networkCopy,
    };
  }
  return { title: shell.networkLaunchTitle, body: shell.networkLaunchConfirm(pending?.name ?? ''), action: shell.networkLaunch };
}

export function NetworkSwitcher() {
  const network = useAppActor('network');
  const networks = useSelector(network, selectNetworks);
  const current = useSelector(network, selectCurrentNetwork);
  // The `change` child asks about the launch, withdrawal or copy and makes it; the dialog follows it.
  const change = useSelector(network, selectChangeActor);
  const confirming = useSelector(change, selectChangeAsking);
  const changing = useSelector(change, selectChangeRunning);
  const pending = useSelector(network, selectPendingChange);
  const fetching = useSelector(network, selectIsFetching);
  const canLaunch = useSelector(network, selectCanLaunch);
  const canCopy = useSelector(network, selectCanCopy);
  const canWithdraw = useSelector(network, selectCanWithdraw);
  // Spec §5: on the default network Launch and Copy are shown disabled with the refusal as their visible reason.
  const defaultRefusal = useSelector(network, selectDefaultNetworkRefusal);
  const lastChange = useSelector(network, selectLastChangeActor);
  const readiness = useSelector(change, selectChangeReadiness);
  const shell = useShellText();
  const text = confirmationText(pending, shell);
  const launchAnyway = readiness?.phase === 'checked' && readiness.gaps.length > 0;
  // Choosing a network or an action closes the panel (it would stay open over the page and behind the dialog).
  const panel = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (!panel.current) return;
    panel.current.open = false;
    // Focus back on the trigger: a dialog opened from the panel returns focus there too.
    panel.current.querySelector('summary')?.focus();
  };
  const send = (event: Parameters<NetworkActorRef['send']>[0]) => {
    close();
    network.send(event);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && panel.current?.open) {
      e.stopPropagation();
      close();
    }
  };
  const currentLabel = fetching && networks.length === 0 ? shell.networkLoading : current?.name ?? shell.networkNone;
  useEffect(() => {
    const closeOnOutsideClick = (e: PointerEvent) => {
      const details = panel.current;
      if (details?.open && e.target instanceof Node && !details.contains(e.target)) details.open = false;
    };
    document.addEventListener('pointerdown', closeOnOutsideClick);
    return () => document.removeEventListener('pointerdown', closeOnOutsideClick);
  }, []);

  return (
    <>
      <details ref={panel} className={css.switcher} data-testid="network-switcher" onKeyDown={onKeyDown}>
        {/* The visible name is part of the accessible name (WCAG 2.5.3 label in name). */}
        <summary className={css.trigger}>
          {current && <img className={css.logo} src={current.image} alt="" />}
          <span className={css.visuallyHidden}>{shell.networkCurrent}</span>
          <span data-testid="network-current">{currentLabel}</span>
        </summary>
        <div className={css.panel}>
          {networks.length === 0 ? (
            <p className={css.empty}>{shell.networkNone}</p>
          ) : (
            <ul className={css.list} aria-label={shell.networkList}>
              {networks.map((n) => {
                const isCurrent = n.identifier === current?.identifier;
                return (
                  <li key={n.identifier}>
                    <button
                      type="button"
                      className={isCurrent ? css.option.current : css.option.normal}
                      aria-current={isCurrent ? 'true' : undefined}
                      data-testid={`network-option-${n.identifier}`}
                      onClick={() => send({ type: 'network.select', identifier: n.identifier })}
                    >
                      <img className={css.logo} src={n.image} alt="" />
                      <span className={css.name}>{n.name}</span>
                      <Mark network={n} shell={shell} />
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {defaultRefusal !== null && (
            <div className={css.actions}>
              <p id="network-default-refusal" className={css.refusal} data-testid="network-default-refusal">{defaultRefusal}</p>
              <button type="button" className={button.primary} data-testid="network-launch" disabled aria-describedby="network-default-refusal">{shell.networkLaunch}</button>
              <button type="button" className={button.secondary} data-testid="network-copy-brand" disabled aria-describedby="network-default-refusal">{shell.networkCopyBrand}</button>
              <button type="button" className={button.secondary} data-testid="network-copy-settings" disabled aria-describedby="network-default-refusal">{shell.networkCopySettings}</button>
            </div>
          )}
          {defaultRefusal === null && (canLaunch || canCopy || canWithdraw) && (
            <div className={css.actions}>
              {canLaunch && (
                <button type="button" className={button.primary} data-testid="network-launch" disabled={changing}
                  onClick={() => send({ type: 'network.launch' })}>{shell.networkLaunch}</button>
              )}
              {canWithdraw && (
                <button type="button" className={button.secondary} data-testid="network-withdraw" disabled={changing}
                  onClick={() => send({ type: 'network.withdraw' })}>{OWN_MESSAGES.networkWithdraw}</button>
              )}
              {canCopy && (
                <>
                  <button type="button" className={button.secondary} data-testid="network-copy-brand" disabled={changing}
                    onClick={() => send({ type: 'network.copy', what: 'brand' })}>{shell.networkCopyBrand}</button>
                  <button type="button" className={button.secondary} data-testid="network-copy-settings" disabled={changing}
                    onClick={() => send({ type: 'network.copy', what: 'settings' })}>{shell.networkCopySettings}</button>
                </>
              )}
            </div>
          )}
          {lastChange && <LastChangeOffer actor={lastChange} onUndo={() => send({ type: 'network.undoLast' })} />}
        </div>
      </details>
      <Modal
        open={confirming || changing}
        title={text.title}
        negativeLabel={shell.cancel}
        positiveLabel={launchAnyway ? LAUNCH_READINESS_TEXT.launchAnyway : text.action}
        positiveDisabled={readiness?.phase === 'checking'}
        busy={changing}
        onNegative={() => network.send({ type: 'network.cancel' })}
        onPositive={() => network.send({ type: 'network.confirm' })}
      >
        <p>{text.body}</p>
        {pending?.kind === 'copy' && <CopyChanges change={change} shell={shell} />}
        {pending?.kind === 'launch' && <LaunchReadiness change={change} name={pending.name} />}
      </Modal>
    </>
  );
}
