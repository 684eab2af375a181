// Numbers as the page writes them: an amount with its sign, the colour class of
// that sign, and a rate as a percentage.

/** A signed amount: "+160", "-20", "0". */
export function signed(amount) {
  return amount > 0 ? `+${amount}` : String(amount);
}

/** The CSS class for a running total or payment: plus, minus or zero. */
export function signClass(amount) {
  return amount > 0 ? 'plus' : amount < 0 ? 'minus' : 'zero';
}

/**
 * A rate (a fraction, statistics, never money) as "25.5%"; none when nothing was played. The API sends the exact
 * fraction: it is rounded here once, halves up, as the group sheet's percent() does.
 */
export function percent(rate) {
  return rate === null || rate === undefined ? '–' : `${Math.round(rate * 1000) / 10}%`;
}
