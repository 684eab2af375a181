// Who is listed in what order: the four players seated now, and any players'
// amounts in seat order (a substitute who left comes last).

/** The four players seated now (state.seats), else the session's starting players. */
export function seatsOf(data) {
  return data.state?.seats || data.players;
}

/** Players in seat order: `seats` first, then anyone else in `amounts` (a substitute who left). */
export function inSeatOrder(amounts, seats) {
  const names = Object.keys(amounts || {});
  return [...(seats || []).filter((name) => names.includes(name)), ...names.filter((name) => !(seats || []).includes(name))];
}
