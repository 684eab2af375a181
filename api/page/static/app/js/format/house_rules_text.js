// A house-rules document (RULES.md §8) in a line of words: "平胡 3台 · Dealer extra (連莊) 1 + n · …",
// for History's "from hand 3" lines. The rule set (GET /api/rulesets) names the patterns.

import {t} from '../i18n.js';

/** The parts of `rules` as words, joined; the rule set's own rules ("-") when it changes nothing. */
export function houseRulesText(rules, ruleset) {
  const named = (id) => [...(ruleset?.patterns || []), ...(ruleset?.house_rules?.on || [])]
    .find((pattern) => pattern.id === id) || {name: id, unit: ruleset?.unit === 'flower' ? 'flower' : 'tai'};
  const parts = Object.entries(rules?.values || {}).map(([id, value]) => {
    const pattern = named(id);
    return `${pattern.name} ${value}${t(`unit_${pattern.unit}`)}`;
  });
  if (rules?.off?.length) parts.push(t('rules_off', {names: rules.off.map((id) => named(id).name).join(', ')}));
  if (rules?.on?.length) parts.push(t('rules_on', {names: rules.on.map((id) => named(id).name).join(', ')}));
  if (rules?.dealer_extra) parts.push(`${t('dealer_extra')} ${t(`dealer_extra_${rules.dealer_extra}`)}`);
  if (rules?.max_dealer_extra !== undefined) parts.push(`${t('max_dealer_extra')} ${rules.max_dealer_extra}`);
  if (rules?.lei_cap !== undefined) parts.push(`${t('lei_cap')} ${rules.lei_cap}`);
  if (rules?.false_win) {
    const [kind, value] = Object.entries(rules.false_win)[0];
    parts.push(`${t('false_win')} ${kind === 'amount' ? t('rules_false_win_amount', {amount: value})
      : t('rules_false_win_self_draw', {n: value})}`);
  }
  return parts.length ? parts.join(' · ') : t('rules_base');
}
