-- Issue 30 (Admin): one second-factor rule per site instead of two booleans that could contradict
-- each other (common/second-factor-rule.ts). The conversion keeps what each site enforced:
--   require_authenticator            → 'authenticator' (the stricter rule; a site that had both keeps it,
--                                       and its accounts keep the SMS code the other rule switched on)
--   require_two_factor only          → 'required'
--   neither                          → 'optional'
ALTER TABLE "sites" ADD COLUMN "second_factor_rule" text DEFAULT 'optional' NOT NULL;
--> statement-breakpoint
UPDATE "sites" SET "second_factor_rule" = CASE
  WHEN "require_authenticator" THEN 'authenticator'
  WHEN "require_two_factor" THEN 'required'
  ELSE 'optional'
END;
--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_second_factor_rule_check" CHECK ("second_factor_rule" IN ('optional', 'required', 'authenticator'));
--> statement-breakpoint
ALTER TABLE "sites" DROP COLUMN "require_two_factor";
--> statement-breakpoint
ALTER TABLE "sites" DROP COLUMN "require_authenticator";
