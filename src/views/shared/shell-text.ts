/**
 * The shell's message catalogue (issue 20): sign-in, header, menus and dialogs, in English (the spec's
 * texts verbatim, from common/messages.ts where the spec gives them) and French, the second language
 * that proves the mechanism. The language is chosen in the user menu and remembered (preferences.ts).
 */
import { APP_TITLE } from '../../../common/constants';
import { MESSAGES } from '../../../common/messages';
import { usePreferences, type Language } from './preferences';

export interface ShellText {
  signInTitle: string;
  username: string;
  password: string;
  signIn: string;
  signingIn: string;
  forgotPassword: string;
  or: string;
  signInGoogle: string;
  signInMicrosoft: string;
  skipLink: string;
  areas: string;
  menu: string;
  userMenu: string;
  admin: string;
  changePassword: string;
  mySessions: string;
  logout: string;
  darkTheme: string;
  language: string;
  logoutTitle: string;
  logoutConfirm: string;
  logoutCancel: string;
  logoutConfirmButton: string;
}

const EN: ShellText = {
  signInTitle: `Sign in to ${APP_TITLE}`,
  username: 'Username',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing in…',
  forgotPassword: 'Forgot password?',
  or: 'or',
  signInGoogle: 'Sign in with Google',
  signInMicrosoft: 'Sign in with Microsoft',
  skipLink: 'Skip to main content',
  areas: 'Areas',
  menu: 'Menu',
  userMenu: 'User menu',
  admin: 'Admin',
  changePassword: 'Change Password',
  mySessions: 'My sessions',
  logout: 'Logout',
  darkTheme: 'Dark theme',
  language: 'Français',
  logoutTitle: 'Logout',
  logoutConfirm: MESSAGES.logoutConfirm,
  logoutCancel: MESSAGES.logoutCancel,
  logoutConfirmButton: MESSAGES.logoutConfirmButton,
};

const FR: ShellText = {
  signInTitle: `Connexion à ${APP_TITLE}`,
  username: "Nom d'utilisateur",
  password: 'Mot de passe',
  signIn: 'Se connecter',
  signingIn: 'Connexion…',
  forgotPassword: 'Mot de passe oublié ?',
  or: 'ou',
  signInGoogle: 'Se connecter avec Google',
  signInMicrosoft: 'Se connecter avec Microsoft',
  skipLink: 'Aller au contenu principal',
  areas: 'Espaces',
  menu: 'Menu',
  userMenu: 'Menu utilisateur',
  admin: 'Administration',
  changePassword: 'Changer le mot de passe',
  mySessions: 'Mes sessions',
  logout: 'Déconnexion',
  darkTheme: 'Thème sombre',
  language: 'English',
  logoutTitle: 'Déconnexion',
  logoutConfirm: 'Voulez-vous vraiment vous déconnecter ?',
  logoutCancel: 'Annuler',
  logoutConfirmButton: 'Oui, se déconnecter',
};

export const SHELL_TEXT: Record<Language, ShellText> = { en: EN, fr: FR };

/** The shell's texts in the chosen language. */
export function useShellText(): ShellText {
  return SHELL_TEXT[usePreferences().language];
}
