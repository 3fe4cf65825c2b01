/** Spec §4.5: the activity events that restart the inactivity timer. */
export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keypress', 'touchstart', 'click'] as const;

export function onUserActivity(listener: () => void, target: Window = window): () => void {
  const options = { passive: true, capture: true };
  for (const name of ACTIVITY_EVENTS) target.addEventListener(name, listener, options);
  return () => {
    for (const name of ACTIVITY_EVENTS) target.removeEventListener(name, listener, options);
  };
}
