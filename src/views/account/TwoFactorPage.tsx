/**
 * /account/security (issue 19, ASVS 6.6.1): the signed-in user's authenticator app. Its status; set
 * up with a QR code of the otpauth:// link (the `qrcode` package, loaded only when a secret is shown)
 * and the secret as text for typing in by hand; the first code confirms it; the recovery codes are
 * shown once with a copy button. Disable (password + code) and new recovery codes when it is on.
 * Reached from the user menu beside "My sessions"; the first page of a user whose site requires it.
 */
import { Suspense, use, useId, useMemo, type FormEvent } from 'react';
import {
  groupSecret, selectCodesCopied, selectRecoveryCodes, selectTotpCode, selectTotpError, selectTotpNotice, selectTotpPassword,
  selectTotpPhase, selectTotpSecret, selectTotpStatus,
} from '../../../machines/totp-enrolment.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import { renderQrSvg } from './qr-svg';
import { button, field, input, label, page, pageTitle } from '../../theme/ui.css';
import * as css from './two-factor.css';
import { TotpEnrolmentContext } from './totp-context';
import { useTotpText } from './totp-text';

export function TwoFactorPage() {
  // The page machine with the Account wiring file's I/O (src/page-actors.tsx); it tells the session-wide
  // auth actor when the app is set up (a site that requires the app lets the user on then).
  const enrolment = usePageActor('twoFactor', { input: { signIn: useAppActor('auth') } });
  return (
    <TotpEnrolmentContext.Provider value={enrolment}>
      <TwoFactorView />
    </TotpEnrolmentContext.Provider>
  );
}

function QrSvg({ markup, name }: { markup: Promise<string>; name: string }) {
  // The markup is the library's own SVG of our link (no user HTML).
  return <div role="img" aria-label={name} className={css.qr} data-testid="totp-qr" dangerouslySetInnerHTML={{ __html: use(markup) }} />;
}

/** The otpauth:// link as an SVG QR code; the library loads on first use (this route only). */
export function QrCode({ value, label: name }: { value: string; label: string }) {
  const markup = useMemo(() => renderQrSvg(value), [value]);
  return (
    <Suspense fallback={<div role="img" aria-label={name} className={css.qr} aria-busy="true" />}>
      <QrSvg markup={markup} name={name} />
    </Suspense>
  );
}

function CodeField({ value, name, labelText, autoFocus = true }: { value: string; name: string; labelText: string; autoFocus?: boolean }) {
  const actor = TotpEnrolmentContext.useActorRef();
  const id = useId();
  return (
    <div className={field}>
      <label htmlFor={id} className={label}>{labelText}</label>
      <input
        id={id} name={name} className={input} value={value} autoComplete="one-time-code" autoFocus={autoFocus} spellCheck={false}
        onChange={(e) => actor.send({ type: 'totp.edit', code: e.target.value })}
      />
    </div>
  );
}

export function TwoFactorView() {
  const t = useTotpText();
  const actor = TotpEnrolmentContext.useActorRef();
  const phase = TotpEnrolmentContext.useSelector(selectTotpPhase);
  const status = TotpEnrolmentContext.useSelector(selectTotpStatus);
  const { secret, otpauthUri } = TotpEnrolmentContext.useSelector(selectTotpSecret);
  const code = TotpEnrolmentContext.useSelector(selectTotpCode);
  const password = TotpEnrolmentContext.useSelector(selectTotpPassword);
  const recoveryCodes = TotpEnrolmentContext.useSelector(selectRecoveryCodes);
  const copied = TotpEnrolmentContext.useSelector(selectCodesCopied);
  const error = TotpEnrolmentContext.useSelector(selectTotpError);
  const notice = TotpEnrolmentContext.useSelector(selectTotpNotice);
  const passwordId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'totp.submit' });
  };
  const cancel = () => actor.send({ type: 'totp.cancel' });
  const busy = phase === 'confirming' || phase === 'disablingSubmit' || phase === 'regeneratingSubmit';

  return (
    <main className={page}>
      <h1 className={pageTitle}>{t.pageTitle}</h1>
      <p className={css.intro}>{t.intro}</p>
      {status?.required && !status.enabled && <p className={css.required} role="status">{t.requiredNote}</p>}
      {notice && <p role="status" className={css.notice}>{notice}</p>}
      {error && <p role="alert" className={css.failure}>{error}</p>}
      {phase === 'loading' && <p>{t.loading}</p>}
      {phase === 'failed' && <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'totp.retry' })}>{t.retry}</button>}

      {status && phase !== 'loading' && phase !== 'failed' && (
        <section className={css.section} aria-label={t.pageTitle}>
          <p className={css.status} data-testid="totp-status">{status.enabled ? t.statusOn : t.statusOff}</p>
          {status.enabled && <p className={css.muted}>{t.recoveryLeft(status.recoveryCodesLeft)}</p>}
          {!status.enabled && <p className={css.muted}>{t.smsNote}</p>}
          {phase === 'idle' && (
            <div className={css.actions}>
              {!status.enabled && (
                <button type="button" className={button.primary} onClick={() => actor.send({ type: 'totp.start' })}>{t.setUp}</button>
              )}
              {status.enabled && (
                <>
                  <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'totp.regenerate' })}>{t.regenerate}</button>
                  <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'totp.disable' })}>{t.disable}</button>
                </>
              )}
            </div>
          )}
          {phase === 'starting' && <p>{t.working}</p>}
        </section>
      )}

      {(phase === 'showingSecret' || phase === 'confirming') && (
        <section className={css.section} aria-labelledby="totp-scan">
          <h2 id="totp-scan" className={css.subtitle}>{t.scanTitle}</h2>
          <div className={css.setup}>
            <QrCode value={otpauthUri} label={t.qrLabel} />
            <form className={css.form} onSubmit={submit} noValidate>
              <span className={label}>{t.manualEntry}</span>
              <code className={css.secret} data-testid="totp-secret" data-secret={secret}>{groupSecret(secret)}</code>
              <CodeField value={code} name="totp-code" labelText={t.confirmLabel} />
              <div className={css.actions}>
                <button type="submit" className={button.primary} disabled={busy}>{phase === 'confirming' ? t.confirming : t.confirm}</button>
                <button type="button" className={button.ghost} onClick={cancel} disabled={busy}>{t.cancel}</button>
              </div>
            </form>
          </div>
        </section>
      )}

      {phase === 'showingRecoveryCodes' && (
        <section className={css.section} aria-labelledby="totp-recovery">
          <h2 id="totp-recovery" className={css.subtitle}>{t.recoveryTitle}</h2>
          <p className={css.muted}>{t.recoveryNote}</p>
          <ol className={css.codes} aria-label={t.recoveryTitle} data-testid="recovery-codes">
            {recoveryCodes.map((c) => <li key={c} className={css.codeItem}>{c}</li>)}
          </ol>
          <div className={css.actions}>
            <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'totp.copy' })} aria-live="polite">
              {copied ? t.copied : t.copyCodes}
            </button>
            <button type="button" className={button.primary} onClick={() => actor.send({ type: 'totp.done' })}>{t.done}</button>
          </div>
        </section>
      )}

      {(phase === 'disabling' || phase === 'disablingSubmit') && (
        <section className={css.section} aria-labelledby="totp-disable">
          <h2 id="totp-disable" className={css.subtitle}>{t.disableTitle}</h2>
          <form className={css.form} onSubmit={submit} noValidate>
            <div className={field}>
              <label htmlFor={passwordId} className={label}>{t.passwordLabel}</label>
              <input id={passwordId} type="password" className={input} value={password} autoComplete="current-password" autoFocus
                onChange={(e) => actor.send({ type: 'totp.editPassword', password: e.target.value })} />
            </div>
            <CodeField value={code} name="totp-disable-code" labelText={t.codeOrRecoveryLabel} autoFocus={false} />
            <div className={css.actions}>
              <button type="submit" className={button.primary} disabled={busy}>{busy ? t.working : t.disableConfirm}</button>
              <button type="button" className={button.ghost} onClick={cancel} disabled={busy}>{t.cancel}</button>
            </div>
          </form>
        </section>
      )}

      {(phase === 'regenerating' || phase === 'regeneratingSubmit') && (
        <section className={css.section} aria-labelledby="totp-regenerate">
          <h2 id="totp-regenerate" className={css.subtitle}>{t.regenerateTitle}</h2>
          <form className={css.form} onSubmit={submit} noValidate>
            <CodeField value={code} name="totp-regenerate-code" labelText={t.codeLabel} />
            <div className={css.actions}>
              <button type="submit" className={button.primary} disabled={busy}>{busy ? t.working : t.regenerateConfirm}</button>
              <button type="button" className={button.ghost} onClick={cancel} disabled={busy}>{t.cancel}</button>
            </div>
          </form>
        </section>
      )}
    </main>
  );
}
