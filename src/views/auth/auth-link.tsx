/**
 * A link of the sign-in page that works with or without the router (issue 26: the sign-in page's first
 * paint does not load TanStack Router). It is a plain `<a href>`; a plain left click goes through the
 * navigation the app provides in `AppNavigationContext` (src/main.tsx: the router once it is there,
 * else the router is loaded first), so the page is not reloaded. Without a provider (a view test) it
 * is an ordinary link.
 */
import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';

export type AppNavigate = (to: string) => void;

export const AppNavigationContext = createContext<AppNavigate | null>(null);

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.defaultPrevented && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useContext(AppNavigationContext);
  return (
    <a
      href={to}
      onClick={(event) => {
        if (!navigate || !isPlainLeftClick(event)) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
