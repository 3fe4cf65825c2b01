/** /logout (spec §2.2, §4.4): the route starts the logout on entry; this page says it is under way. */
import { LoadingOverlay } from '../shared/LoadingOverlay';

export function LogoutPage() {
  return <LoadingOverlay label="Signing you out…" />;
}
