// Why money moved, in the reader's language: the reasons the server gives for
// each payment line of a hand (ledger/explain.py), one code at a time.

import {t} from '../i18n.js';

/** The reasons a line's `reasons` codes stand for; each gets the line and the reason. */
const REASONS = {
  self_draw: () => t('why_self_draw'),
  discard: () => t('why_discard'),
  robbing_kong: () => t('why_robbing_kong'),
  eight_flowers: () => t('why_eight_flowers'),
  seven_flowers_rob: () => t('why_seven_flowers_rob'),
  base: (line, reason) => t('why_base', reason),
  tai: (line, reason) => withPatterns(reason.capped_from === undefined ? t('why_tai', reason)
    : t('why_tai_capped', {...reason, from: reason.capped_from}), reason.patterns),
  dealer_extra: (line, reason) => t(reason.capped_from === undefined ? 'why_dealer_extra' : 'why_dealer_extra_capped',
    {...reason, formula: t(`why_formula_${reason.formula || '1+2n'}`, reason), from: reason.capped_from}),
  false_win: () => t('why_false_win'),
  false_win_amount: (line, reason) => t('why_false_win_amount', reason),
  share: (line, reason) => withPatterns(reason.fan === undefined ? t('why_share', reason)
    : `${t('why_share', reason)} (${t('why_share_breakdown', reason)})`, reason.patterns),
  wasteland: (line, reason) => (reason.dice ? t('why_wasteland_dice', {...reason, dice: reason.dice.join('-')})
    : t('why_wasteland', reason)),
  shares: (line, reason) => t('why_shares', reason),
  three_mouth_self_draw: (line) => t('why_three_mouth_self_draw', line),
  three_mouth_discard: () => t('why_three_mouth_discard'),
  three_mouth_ready: (line, reason) => (reason.related
    ? t('why_three_mouth_ready_related', {...line, discarder: reason.discarder}) : t('why_three_mouth_ready')),
  three_mouth_not_ready: () => t('why_three_mouth_not_ready'),
};

/** A 台 or share reason followed by the engine's patterns of a tile-entered hand (names stay Chinese). */
function withPatterns(text, patterns) {
  if (!patterns?.length) return text;
  return `${text}: ${patterns.map((pattern) => `${pattern.name} ${pattern.value}`).join(', ')}`;
}

/** One reason in words. */
export function reasonText(line, reason) {
  const word = REASONS[reason.code];
  return word ? word(line, reason) : reason.code;
}
