// A hand in words: the value a quick entry counts in (台 or points), how it was
// won, its one-line summary (History, a waiting hand, what another phone did)
// and the money it moved (the toast once it is recorded).

import {t} from '../i18n.js';
import {signed} from './numbers.js';
import {inSeatOrder} from './seats.js';

/** A winner's value in a quick entry: 台 (`tai`), or one share in 底分 (`points`) in shanghai. */
export function valueKey(ruleset) {
  return ruleset === 'shanghai' ? 'points' : 'tai';
}

/** "self-draw", "discarded by Cat" or "robbed from Cat" (搶槓). */
export function howWon({by, discarder}) {
  return by === 'self_draw' ? t('self_draw')
    : t(by === 'robbing_kong' ? 'robbed_from' : 'discarded_by', {player: discarder});
}

/** One line about a hand body: who won, how, for how much; or the draw. */
export function handSummary(body, scores, ruleset) {
  if (body.draw) return `${t('draw')} · ${t(`reason_${body.reason || 'exhausted'}`)}`;
  if (body.false_win) return t('false_win_by', {player: body.false_win});
  const name = valueKey(ruleset);
  const winners = (body.winners || []).map((winner, index) => {
    const value = scores?.[index]?.[name] ?? winner[name];
    return value === undefined ? winner.player : `${winner.player} ${value}${t(`unit_short_${name}`)}`;
  }).join(', ');
  return `${winners} · ${howWon(body)}`;
}

/** "Hand 3 recorded: Amy +180, Cat -180", players in seat order; `key` names what happened. */
export function paymentSummary(result, key = 'hand_n_recorded') {
  const payments = result.payments || {};
  const moves = inSeatOrder(payments, result.state?.seats).filter((player) => payments[player] !== 0)
    .map((player) => `${player} ${signed(payments[player])}`);
  return `${t(key, {n: result.number})}${moves.length ? `: ${moves.join(', ')}` : ''}`;
}
