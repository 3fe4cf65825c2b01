-- Issue 37 (item 3): every amount is at most 2147483647 minor units (MONEY_MINOR_MAX, common/monetization-rules.ts).
-- Before it, planCreate / planUpdate stored a price past it in the jsonb prices (and answered 500), after which
-- every plan list and subscriber page failed for every reader. Such a price is brought down to the bound here
-- (integer columns could never hold more, so only the jsonb prices need it); nothing else changes.
UPDATE plans SET prices = (
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(e.p->'amount') = 'number' AND (e.p->>'amount')::numeric > 2147483647
    THEN jsonb_set(e.p, '{amount}', '2147483647'::jsonb) ELSE e.p END ORDER BY e.ord)
  FROM jsonb_array_elements(plans.prices) WITH ORDINALITY AS e(p, ord)
) WHERE jsonb_typeof(prices) = 'array' AND EXISTS (
  SELECT 1 FROM jsonb_array_elements(plans.prices) AS x(p)
  WHERE jsonb_typeof(x.p->'amount') = 'number' AND (x.p->>'amount')::numeric > 2147483647
);
--> statement-breakpoint
UPDATE plan_price_versions SET prices = (
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(e.p->'amount') = 'number' AND (e.p->>'amount')::numeric > 2147483647
    THEN jsonb_set(e.p, '{amount}', '2147483647'::jsonb) ELSE e.p END ORDER BY e.ord)
  FROM jsonb_array_elements(plan_price_versions.prices) WITH ORDINALITY AS e(p, ord)
) WHERE jsonb_typeof(prices) = 'array' AND EXISTS (
  SELECT 1 FROM jsonb_array_elements(plan_price_versions.prices) AS x(p)
  WHERE jsonb_typeof(x.p->'amount') = 'number' AND (x.p->>'amount')::numeric > 2147483647
);
