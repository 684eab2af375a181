// Numbers as the page writes them: an amount with its sign, the colour class of
// that sign, a rate as a percentage, a competition's exact points as a decimal, and a rating.

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

/**
 * Exact points or a shared place ("7/3", "4", as the standings' `points_exact`) as a decimal of at most two
 * places: "2.33", "1.5", "4". Whole hundredths in integers: twelfths are never halfway between two.
 */
export function decimal(exact) {
  if (exact === null || exact === undefined) return '';
  const [top, bottom = '1'] = String(exact).split('/');
  const hundredths = Math.round((Number(top) * 100) / Number(bottom));
  const cents = hundredths % 100;
  const whole = (hundredths - cents) / 100;
  return cents ? `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}` : String(whole);
}

/** A rating (μ − 3σ, already two decimals from the API) as "2.95", "-0.47"; "–" for a member not rated yet. */
export function ratingText(rating) {
  return rating === null || rating === undefined ? '–' : rating.toFixed(2);
}
