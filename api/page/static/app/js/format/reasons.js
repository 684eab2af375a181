// Why money moved, in the reader's language: the reasons the server gives for
// each payment line of a hand (ledger/explain.py), one code at a time. Each code
// is worded once, by its `reason.<code>` template of words/, which the PDF
// (reports/sentences.py) reads too: only the choice of template is made here, as there.

import {word} from '../i18n.js';

/** The template of the codes that have more than one, by what the reason says. */
const TEMPLATES = {
  tai: (reason) => (reason.capped_from === undefined ? 'reason.tai' : 'reason.tai_capped'),
  dealer_extra: (reason) => (reason.capped_from === undefined ? 'reason.dealer_extra' : 'reason.dealer_extra_capped'),
  wasteland: (reason) => (reason.dice ? 'reason.wasteland_dice' : 'reason.wasteland'),
  three_mouth_ready: (reason) => (reason.related ? 'reason.three_mouth_ready_related' : 'reason.three_mouth_ready'),
};
/** The codes followed by the engine's patterns of a tile-entered hand. */
const WITH_PATTERNS = new Set(['tai', 'share']);

/** A 台 or share reason followed by the engine's patterns of a tile-entered hand (names stay Chinese). */
function withPatterns(text, patterns) {
  if (!patterns?.length) return text;
  return `${text}: ${patterns.map((pattern) => `${pattern.name} ${pattern.value}`).join(', ')}`;
}

/** One reason of a payment line in words; its code when the words have none. */
export function reasonText(line, reason) {
  const key = TEMPLATES[reason.code]?.(reason) ?? `reason.${reason.code}`;
  const values = {...line, ...reason};
  if (reason.code === 'dealer_extra') values.formula = word(`reason.formula_${reason.formula || '1+2n'}`, reason);
  if (reason.dice) values.dice = reason.dice.join('-');
  let text = word(key, values);
  if (text === key) return reason.code;
  if (reason.code === 'share' && reason.fan !== undefined) text += ` (${word('reason.share_breakdown', reason)})`;
  return WITH_PATTERNS.has(reason.code) ? withPatterns(text, reason.patterns) : text;
}

/** Who pays whom on a payment line: "Cat pays Ben". */
export function paysText(line) {
  return word('reason.pays', line);
}
