/**
 * The texts of the authenticator-app views (issue 19): the account's "Two-factor authentication"
 * page, the sign-in step, the user-menu entry and the Admin switch, in English (from common/totp.ts,
 * which the server and machines speak too) and French, chosen like the shell catalogue
 * (src/views/shared/shell-text.ts) by the user's language preference. Messages that come from the
 * server or a machine (errors, notes) stay as they arrive.
 */
import { TOTP_MESSAGES as M } from '../../../common/totp';
import { usePreferences, type Language } from '../shared/preferences';

export interface TotpText {
  pageTitle: string;
  menuItem: string;
  intro: string;
  statusOn: string;
  statusOff: string;
  statusPending: string;
  recoveryLeft: (count: number) => string;
  smsNote: string;
  requiredNote: string;
  setUp: string;
  scanTitle: string;
  manualEntry: string;
  qrLabel: string;
  confirmLabel: string;
  confirm: string;
  confirming: string;
  cancel: string;
  recoveryTitle: string;
  recoveryNote: string;
  copyCodes: string;
  copied: string;
  done: string;
  disable: string;
  disableTitle: string;
  disableConfirm: string;
  passwordLabel: string;
  codeOrRecoveryLabel: string;
  regenerate: string;
  regenerateTitle: string;
  regenerateConfirm: string;
  codeLabel: string;
  working: string;
  loading: string;
  retry: string;
  signInTitle: string;
  signInText: string;
  recoveryLabel: string;
  recoveryText: string;
  useRecovery: string;
  useAuthenticator: string;
  verify: string;
  verifying: string;
  signingIn: string;
  backToSignIn: string;
}

const EN: TotpText = {
  pageTitle: M.pageTitle,
  menuItem: M.menuItem,
  intro: M.intro,
  statusOn: M.statusOn,
  statusOff: M.statusOff,
  statusPending: M.statusPending,
  recoveryLeft: (count) => `Recovery codes left: ${count}`,
  smsNote: M.smsNote,
  requiredNote: M.requiredNote,
  setUp: M.setUp,
  scanTitle: M.scanTitle,
  manualEntry: M.manualEntry,
  qrLabel: M.qrLabel,
  confirmLabel: M.confirmLabel,
  confirm: M.confirm,
  confirming: 'Confirming…',
  cancel: M.cancel,
  recoveryTitle: M.recoveryTitle,
  recoveryNote: M.recoveryNote,
  copyCodes: M.copyCodes,
  copied: M.copied,
  done: M.done,
  disable: M.disable,
  disableTitle: M.disableTitle,
  disableConfirm: M.disableConfirm,
  passwordLabel: M.passwordLabel,
  codeOrRecoveryLabel: M.codeOrRecoveryLabel,
  regenerate: M.regenerate,
  regenerateTitle: M.regenerateTitle,
  regenerateConfirm: M.regenerateConfirm,
  codeLabel: M.codeLabel,
  working: 'Working…',
  loading: 'Loading…',
  retry: 'Retry',
  signInTitle: M.signInTitle,
  signInText: M.signInText,
  recoveryLabel: M.recoveryLabel,
  recoveryText: M.recoveryText,
  useRecovery: M.useRecovery,
  useAuthenticator: M.useAuthenticator,
  verify: 'Verify',
  verifying: 'Verifying…',
  signingIn: 'Signing you in…',
  backToSignIn: 'Back to sign in',
};

const FR: TotpText = {
  pageTitle: 'Authentification à deux facteurs',
  menuItem: 'Authentification à deux facteurs',
  intro: "Une application d'authentification donne un nouveau code toutes les 30 secondes. Elle est plus sûre qu'un code par SMS : une fois configurée, la connexion la demande à sa place.",
  statusOn: "Application d'authentification : activée",
  statusOff: "Application d'authentification : désactivée",
  statusPending: "Application d'authentification : en attente du premier code",
  recoveryLeft: (count) => `Codes de secours restants : ${count}`,
  smsNote: "Les codes par SMS restent inchangés pour les comptes sans application d'authentification.",
  requiredNote: "Ce site exige une application d'authentification : configurez-la pour continuer.",
  setUp: "Configurer une application d'authentification",
  scanTitle: "Scannez ce QR code avec votre application d'authentification",
  manualEntry: 'Ou saisissez cette clé à la main',
  qrLabel: "QR code du lien de configuration de l'application",
  confirmLabel: "Code de l'application",
  confirm: 'Confirmer',
  confirming: 'Confirmation…',
  cancel: 'Annuler',
  recoveryTitle: 'Vos codes de secours',
  recoveryNote: "Chaque code permet une connexion si vous perdez votre téléphone. Ils ne sont affichés qu'une fois : copiez-les et gardez-les en lieu sûr.",
  copyCodes: 'Copier les codes',
  copied: 'Copié',
  done: 'Terminé',
  disable: "Désactiver l'application d'authentification",
  disableTitle: "Désactiver l'application d'authentification",
  disableConfirm: 'Désactiver',
  passwordLabel: 'Mot de passe actuel',
  codeOrRecoveryLabel: "Code de l'application ou code de secours",
  regenerate: 'Nouveaux codes de secours',
  regenerateTitle: 'Créer de nouveaux codes de secours',
  regenerateConfirm: 'Créer les codes',
  codeLabel: "Code de l'application",
  working: 'En cours…',
  loading: 'Chargement…',
  retry: 'Réessayer',
  signInTitle: "Code de l'application",
  signInText: "Saisissez le code à 6 chiffres de votre application d'authentification.",
  recoveryLabel: 'Code de secours',
  recoveryText: "Saisissez l'un des codes de secours gardés lors de la configuration.",
  useRecovery: 'Utiliser un code de secours',
  useAuthenticator: "Utiliser l'application d'authentification",
  verify: 'Vérifier',
  verifying: 'Vérification…',
  signingIn: 'Connexion…',
  backToSignIn: 'Retour à la connexion',
};

export const TOTP_TEXT: Record<Language, TotpText> = { en: EN, fr: FR };

/** The authenticator texts in the user's language. */
export function useTotpText(): TotpText {
  return TOTP_TEXT[usePreferences().language];
}
