/**
 * The site's second-factor rule on the Staff page (issue 30): one control with three values
 * (common/second-factor-rule.ts). An Admin editor picks one; the staff page machine asks first and
 * says what the change will do (the confirmation in StaffDialogs.tsx), then writes it and reads the
 * list again. Admin read sees the rule in force and no control. 'An authenticator app' is offered
 * only to an editor who has one (else it would lock them out at once; the server refuses it too).
 * Below it, for every reader, the rule's History behind a disclosure (the page machine's `ruleHistory`).
 */
import { Link } from '@tanstack/react-router';
import { SECOND_FACTOR_RULES, SECOND_FACTOR_TEXT } from '../../../common/second-factor-rule';
import { TOTP_ROUTES } from '../../../common/totp';
import { STAFF_HISTORY_TEXT } from '../../../common/staff-revision-words';
import { selectCanEdit, selectIsWorking, selectRuleHistory, selectSecondFactor } from '../../../machines/staff-admin.machine';
import * as css from './admin.css';
import { HistoryDisclosure } from '../shared/HistoryDisclosure';
import { useStaffPage, useStaffSelector } from './staff-admin-context';

export function SecondFactorRuleControl() {
  const actor = useStaffPage();
  const state = useStaffSelector(selectSecondFactor);
  const canEdit = useStaffSelector(selectCanEdit);
  const working = useStaffSelector(selectIsWorking);
  const history = useStaffSelector(selectRuleHistory);
  if (!state) return null;
  const disclosure = <HistoryDisclosure disclosure={history} region={STAFF_HISTORY_TEXT.ruleRegion} />;
  if (!canEdit) {
    return (
      <>
        <p className={css.muted} data-testid="second-factor-rule">{SECOND_FACTOR_TEXT.current(state.rule)}</p>
        {disclosure}
      </>
    );
  }
  return (
    <>
      <fieldset className={css.ruleGroup} data-testid="second-factor-rule">
        <legend className={css.ruleLegend}>{SECOND_FACTOR_TEXT.legend}</legend>
        <p className={css.muted} style={{ margin: 0 }}>{SECOND_FACTOR_TEXT.help}</p>
        <div className={css.ruleChoices}>
          {SECOND_FACTOR_RULES.map((rule) => (
            <label key={rule} className={css.ruleChoice}>
              <input type="radio" name="second-factor-rule" value={rule} checked={state.rule === rule}
                disabled={working || (rule === 'authenticator' && !state.ownAuthenticator && state.rule !== rule)}
                aria-labelledby={`second-factor-${rule}-label`} aria-describedby={`second-factor-${rule}-hint`}
                onChange={() => actor.send({ type: 'site.secondFactor', rule })} />
              <span className={css.ruleText}>
                <span id={`second-factor-${rule}-label`}>{SECOND_FACTOR_TEXT.options[rule].label}</span>
                <span id={`second-factor-${rule}-hint`} className={css.muted}>{SECOND_FACTOR_TEXT.options[rule].hint}</span>
              </span>
            </label>
          ))}
        </div>
        {!state.ownAuthenticator && state.rule !== 'authenticator' && (
          <p className={css.muted} style={{ margin: '0.5rem 0 0' }}>
            {SECOND_FACTOR_TEXT.enrolFirst}{' '}<Link to={TOTP_ROUTES.accountSecurity}>{SECOND_FACTOR_TEXT.enrolLink}</Link>
          </p>
        )}
      </fieldset>
      {disclosure}
    </>
  );
}
