/** Spec §7.7: the analytics tag loads only when a measurement id is configured. */
export function loadAnalyticsTag(measurementId: string, doc: Document = document): boolean {
  if (!measurementId || !/^[A-Z0-9-]+$/i.test(measurementId)) return false;
  const script = doc.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  doc.head.appendChild(script);
  const w = doc.defaultView as (Window & { dataLayer?: unknown[] }) | null;
  if (w) {
    w.dataLayer = w.dataLayer ?? [];
    w.dataLayer.push(['js', new Date()], ['config', measurementId]);
  }
  return true;
}
