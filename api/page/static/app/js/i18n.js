// Interface text in 繁體中文, 简体中文 and English (switchable, remembered).
// Pattern names come from the API in the page's script (Accept-Language), never
// converted here.

import {read, write} from './storage.js';
import {WIND_NAMES} from './tiles.js';

const EN = {
  dealer_extra: 'Dealer extra (連莊)', 'dealer_extra_1+2n': '1 + 2n (usual)', 'dealer_extra_1+n': '1 + n',
  dealer_extra_none: 'None', false_win: 'False win (詐胡)', false_win_amount: 'A fixed amount to each',
  false_win_as_self_draw: 'As a self-drawn hand of … {unit}', false_win_by: '{player} · False win (詐胡)',
  false_win_default: 'Self-draw {n} {unit} (usual)', false_win_hint: 'They pay each of the others the penalty below; the hand is played again with the same dealer and winds.',
  false_win_penalty: 'False win (詐胡) penalty', false_win_pays: 'Penalty: {penalty}', house_mark_added: 'house rule: added',
  house_mark_was: 'house rule (was {base})', house_rules: 'House rules (家規)', house_rules_changes: '{n} change(s)',
  lei_cap: 'Cap of a 花 hand (勒子, points)', max_dealer_extra: 'Cap on the dealer extra (台)',
  need_false_win: 'Tap who declared the false win.', not_false_win: 'It was a real win', pattern_extra: 'not in these rules: switch on to add',
  patterns: 'Patterns: value and on/off', patterns_hint: 'Values are in the pattern\'s own unit; a pattern counted per item keeps counting per item.',
  penalty_amount: '{amount} to each', penalty_self_draw: 'a self-drawn {n} {unit} to each', preset_none: 'None (the rules as they are)', presets: 'Presets',
  search_patterns: 'Search: 名稱 or id', who_false_win: 'Who declared a false win?',
  also_played: 'Also played:', apply: 'Apply', back_to_table: 'Back to the table', cancel: 'Cancel', change: 'Change',
  change_seat: 'Change seat', change_seat_hint: 'From the next hand on, the new player takes the seat, its place in the deal and its streak.',
  coming_back: 'Coming back:', confirm_discard: 'Discard this hand? It was never recorded.',
  confirm_forget: 'Forget {name} on this phone? Without its link it cannot be opened here again.', confirm_correct: 'Replace hand {n} with this? Later hands are recounted.', confirm_restore: 'Restore hand {n}? It counts again; later hands are recounted.', confirm_void: 'Void hand {n}? It stays in the history but counts for nothing; later hands are recounted.',
  continue_evening: 'Continue an evening', copy_link: 'Copy link', correct: 'Correct', correct_hand_n: 'Correct hand {n}',
  count: 'Count', count_first: 'Build the hand, then tap Count to see its breakdown.',
  count_offline: 'Offline: the server will count this hand when it is sent.',
  dealer: 'Dealer', dice: 'Dice thrown before the hand', dice_hint: 'Tap both dice, or leave them empty.',
  discard: 'Discard', edit: 'Edit', edit_waiting_hand: 'Edit a waiting hand', discarded_by: 'discarded by', discarder_ready: 'The discarder was ready (聽牌)',
  draw: 'Draw', draw_reason: 'Why no one won', enter_draw: 'Draw (流局)', enter_win: 'Win (胡)',
  error_not_found: 'This session does not exist on the server.', error_offline: 'No connection. Nothing was lost: try again when the Wi-Fi is back.',
  error_server: 'The server had a problem. Nothing was lost: try again.', error_token: 'This phone\'s link does not open the session. Open the share link again.',
  error_too_large: 'Too much data in one request.', evening_name: 'Name of the evening',
  first_deals: 'Enter the players in turn order (counter-clockwise). The first one deals first (東).',
  flag_after_kong: 'Won on a replacement tile (槓上開花)', flag_declared_ready: 'Declared ready (聽牌/立直)',
  flag_last_tile: 'Last tile (海底)', flowers: 'Flowers', forget: 'Forget on this phone',
  hand_n: 'Hand {n}', hand_n_recorded: 'Hand {n} recorded', hand_n_restored: 'Hand {n} restored',
  hand_n_voided: 'Hand {n} voided', hands_csv: 'Hands (CSV)', history: 'History', how_much: 'How much?',
  link_copied: 'Link copied', meld_chow: 'Chow 吃', meld_concealed_kong: 'Concealed kong 暗槓', meld_kong: 'Kong 槓',
  meld_pung: 'Pung 碰', mode_full: 'Tiles', mode_quick: 'Quick', need_both_dice: 'Tap both dice (or neither).',
  need_discarder: 'Tap who discarded, or self-draw.', need_seat: 'Tap the seat that changes.',
  need_value: 'Enter a whole number.', need_winner: 'Tap who won.', new_evening: 'New evening', no_cap: 'no cap',
  no_hands_yet: 'No hands yet.', no_rounding: 'no rounding', no_special_event: 'No special event',
  none: 'None', nothing_to_pay: 'Nobody owes anything.', offline: 'Offline',
  options: 'Table options', other_session: 'Another evening', pdf_sheet: 'Settlement sheet (PDF)', pending: 'Waiting to be sent',
  pending_failed: '{count} hand(s) refused by the server.', pending_hands: '{count} hand(s) waiting to be sent.',
  player_n: 'Player {n}', player_name: 'Name', players_in_order: 'Players, in seat order', qr_alt: 'QR code of the share link',
  queued: 'Saved on this phone: it will be sent when the connection is back.', reason_exhausted: 'Wall exhausted (荒牌)',
  reason_four_kongs: 'Four kongs (四槓和局)', reason_four_winds: 'Four winds (四風連和)', record: 'Record',
  refused: 'Refused', rejected_count: '{count} waiting hand(s) refused: see History.', remove: 'Remove', restore: 'Restore',
  retry: 'Try again', review: 'Review', robbed_from: 'robbed from', robbing_kong: 'Robbing a kong (搶槓)',
  round_wind: 'Round {wind}', hand_wind: 'Deal {wind}', round_to: 'Round totals to', round_to_hint: 'The smallest note or coin at the table.',
  ruleset: 'Rules', seat_changed: '{player} sits down from the next hand.', self_draw: 'Self-draw 自摸',
  send_now: 'Send now', sent_count: '{count} waiting hand(s) sent.', settle: 'Settle', several_winners_hint: 'Several winners on one discard: tap each.',
  shanghai_extras: 'Shanghai extras', shanghai_total: '花 {flowers} · 勒 {lei} · 番 {fan} → {points} points',
  share: 'Share', share_hint: 'Scan this on another phone to keep score together.', share_via: 'Share…',
  share_warning: 'Anyone with this link can enter hands in this session.', showing_saved_copy: 'Offline: showing the last saved copy.',
  special_event: 'Special event', stake_base_flower: 'Base (底分)', stake_base_tai: 'Base (底)', stake_per_tai_tai: 'Per 台',
  stakes: 'Stakes', start: 'Start the evening', streak_n: 'streak {n}', switch_language: 'EN', tai_total: 'Total: {total} 台',
  tap_tiles_below: 'Tap tiles below to add them.', target_hand: 'Hand', target_meld: 'Meld', target_winning: 'Winning tile',
  three_mouth: '三口 pairs', three_mouth_hint: 'Tap two players who are in a 三口 relation.',
  tiles_in_hand: 'Tiles in hand: {n} / {needed}', to_table: 'To the table', toggle_concealed: 'Open/concealed',
  transfers: 'Who pays whom', unit_fan: '番', unit_flower: '花', unit_lei: '勒', unit_points: 'points', unit_short_points: ' pts',
  unit_short_tai: '台', unit_tai: '台', void: 'Void', voided: 'Voided', waiting_count: '{count} waiting',
  wasteland_n: '荒番 {n}', which_seat: 'Which seat?', who_discarded: 'Who discarded? (or self-draw)',
  who_sits_down: 'Who sits down?', who_was_robbed: 'Whose kong was robbed? (搶槓)', who_won: 'Who won?', win: 'Win', winning_tile: 'Winning tile',
  // Why money moved (the reasons of a hand's payment lines, ledger/explain.py).
  pays: '{payer} pays {payee}', why_self_draw: 'self-draw', why_discard: 'discarded', why_robbing_kong: 'kong robbed (搶槓)',
  why_eight_flowers: '八仙過海 / 八花, paid as a self-draw', why_seven_flowers_rob: '七搶一: holds the eighth flower',
  why_base: 'base {amount}', why_tai: '{tai} 台 × {per_tai} = {amount}', why_tai_capped: '{tai} 台 (cap; the hand had {from}) × {per_tai} = {amount}',
  why_dealer_extra: 'dealer extra, {dealer} on streak {streak}: {formula} = {tai} 台 × {per_tai} = {amount}',
  'why_formula_1+2n': '1 + 2×{streak}', 'why_formula_1+n': '1 + {streak}',
  why_dealer_extra_capped: 'dealer extra, {dealer} on streak {streak}: {formula} = {from}, capped at {tai} 台 × {per_tai} = {amount}',
  why_false_win: 'false win (詐胡)', why_false_win_amount: '{amount} to each',
  why_share: '{points} points × 底分 {base} = {amount}', why_share_breakdown: '花 {flowers} · 勒 {lei} · 番 {fan}',
  why_wasteland: '荒番 ×2 (counter {counter})', why_wasteland_dice: '荒番 ×2 (counter {counter}, dice {dice})',
  why_shares: '× {shares} share(s)',
  why_three_mouth_self_draw: '三口 with {payee}: {payer} pays 5 shares, the others nothing',
  why_three_mouth_discard: '三口: discarded to a related player, 2 shares',
  why_three_mouth_ready: 'discarded while ready (聽牌) to a player with 三口: 1 share',
  why_three_mouth_ready_related: '三口 with {payee}: {discarder} discarded while ready, so {payer} pays a share without discarding',
  why_three_mouth_not_ready: 'discarded while not ready to a player with 三口: 2 shares, alone',
  // Previews, undo and marks.
  preview: 'What each player pays or gets', preview_offline: 'Offline: the preview needs the server.',
  preview_waiting: 'Hands are waiting on this phone: the preview comes once they are sent.',
  preview_failed: 'No preview: {message}', quick_tai_hint: 'The 台 of the hand only, without the dealer\'s 莊家台: the page adds 1 + 2n as its own line.',
  change_preview: 'What changes', change_none: 'No other hand changes.', change_hand: 'Hand {n}', change_dealer: 'dealer {before} → {after}',
  change_streak: 'streak {before} → {after}', change_values: '{before} → {after} {unit}', change_voided: 'voided', change_restored: 'counts again',
  change_totals: 'Totals after', hand_n_corrected: 'Hand {n} corrected', corrected_at: 'corrected {time}', undo: 'Undo',
  hand_n_undone: 'Hand {n} undone (voided)', void_last: 'Void', still_offline: 'Still offline: the hands wait on this phone.',
  show_name: 'Full name',
  // Validation, in words.
  check_field: '{field}: not accepted. Check it and try again.', field_name: 'name of the evening', field_players: 'players',
  field_player: 'player {n}', field_stakes: 'stakes', field_base: 'base', field_per_tai: 'per 台', field_max_tai: 'cap on 台',
  field_winners: 'winner', field_discarder: 'discarder', field_value: 'value', field_hand: 'the hand', field_winning_tile: 'winning tile',
  field_dice: 'dice', field_three_mouth: '三口 pairs', field_round_to: 'round totals to', field_seat: 'seat', field_event: 'special event',
  need_name: 'Give the evening a name.', need_player: 'Enter player {n}\'s name.', player_twice: '{name} is listed twice.',
  need_stake: 'Enter a whole number from 1 for {field}.', need_cap: 'The cap on 台 is a whole number from 1, or empty.',
  need_winning_tile: 'Tap the winning tile (or choose a special event).', need_tiles: 'The hand needs {needed} tiles before the winning tile; it has {n}.',
  need_round_to: 'Round to a whole number from 1, or leave it empty.',
  rounding_note: 'Rounded to multiples of {unit}; each total moved by: {moves}.', rounding_note_none: 'Every total is already a multiple of {unit}.',
  pdf_sheet_rounded: 'Settlement sheet (PDF), rounded to {unit}',
  // Languages, big text, and the evening as a picture or a chat message (issue 20).
  language: 'Language', language_name: 'English', big_text: 'Big text',
  share_card: 'Share as a picture', copy_text: 'Copy as text', text_copied: 'Summary copied: paste it into the chat.',
  card_saved: 'Picture downloaded.', summary_totals: 'Totals: {totals}', summary_transfers: 'Who pays whom:', summary_rounded: '(rounded to {unit})',
  // Many phones at one table: conflicts, live updates, read-only links, closing, new links.
  conflict_title: 'Another phone was quicker', conflict_other: 'The evening was changed on another phone.',
  since_hand: 'Hand {n} was just recorded on another phone: {summary}', since_changed: 'Hand {n} was changed on another phone: {summary}',
  since_voided: 'Hand {n} was voided on another phone.', since_seat: '{player} took {replaces}\'s seat on another phone.',
  conflict_mine: 'Yours, not recorded yet: {summary}', conflict_mine_change: 'Yours, not done yet: {what}',
  conflict_drop: 'Drop mine', conflict_keep_hand: 'Record mine as a further hand', conflict_keep: 'Do mine anyway',
  conflict_dropped: 'Yours was dropped.', error_stale: 'Another phone changed the evening first: choose what to do with yours.',
  review_conflict: 'Choose', what_void: 'void hand {n}', what_correct: 'correct hand {n}', what_seat: '{player} sits down',
  what_close: 'end the evening', what_reopen: 'reopen the evening',
  error_closed: 'This evening has been ended: nothing can be changed. Reopen it in Settle first.',
  error_read_only: 'This is a read-only link: it shows the evening but cannot change it.',
  error_link_replaced: 'This link has been replaced by a new one: ask the table for the new link.',
  read_only_note: 'Read-only link: you follow the evening, you cannot change it.',
  closed_note: 'Evening ended at {time}: final. Reopen it in Settle to change anything.',
  end_evening: 'End the evening', confirm_end: 'End the evening? Nothing can be recorded or changed until it is reopened; the PDF says it is final.',
  evening_ended: 'Evening ended.', reopen_evening: 'Reopen', evening_reopened: 'Evening reopened.',
  share_write: 'Link to keep score', share_read: 'Read-only link (to watch)',
  share_read_warning: 'This link shows the evening and cannot change it.', share_read_unknown: 'This phone does not know the read-only link: tap New links to get both.',
  new_links: 'New links (the old ones stop working)', confirm_new_links: 'Make new links? Every phone holding an old link loses the evening until it opens a new one.',
  new_links_done: 'New links made: share them again.',
  qr_read_alt: 'QR code of the read-only link',  // Groups (牌友會, issue 19): the group's home, new evening, standings, balances, member page, share.
  groups: 'Groups (牌友會)', group_start: 'Start a group (牌友會)', group_name: 'Name of the group',
  group_create: 'Create the group', group_need_name: 'Give the group a name.',
  confirm_forget_group: 'Forget the group {name} on this phone? Without its link it cannot be opened here again.',
  group_home: 'Group: {name}', group_other: 'Another evening or group', group_to_home: 'Back to the group',
  group_read_only_note: 'Read-only link: you follow the group, you cannot change it.',
  group_new_evening: 'New evening', group_standings: 'Standings', group_balances: 'Balances', group_share: 'Share the group',
  group_evenings: 'Evenings', group_no_evenings: 'No evenings yet.', group_all_evenings: 'All {count} evenings', group_open: 'open', group_ended: 'ended',
  group_evening_line: '{day} · {hands} hand(s)', group_members: 'Members', group_no_members: 'No members yet: add a guest.',
  group_roster: 'Tap four members, in seat order', group_tap_member: 'Tap a member below',
  group_first_deals: 'In turn order (counter-clockwise): the first one deals first (東). Tap a seat to empty it.',
  group_add_guest: 'Add a guest', group_add: 'Add', group_guest_name: 'Name of the guest', group_need_guest_name: 'Enter the guest\'s name.',
  group_need_pick: 'Pick player {n}.',
  group_sheet: 'Group sheet (PDF)', group_standings_csv: 'Standings (CSV)',
  group_balances_csv: 'Balances (CSV)', group_payments_csv: 'Payments (CSV)',
  group_period: 'Period', group_all_time: 'All time', group_this_year: 'This year ({year})',
  group_no_standings: 'No evenings in this period.',
  group_standing_line: '{evenings} evening(s) · {hands} hands · won {wins} ({win_rate}) · deal-in rate {deal_in_rate}',
  group_open_balances: 'Open balances', group_balances_hint: 'Evenings\' results plus payments made, minus payments received. Tap a name to see why.',
  group_because_payment: 'Payment', group_record_payment: 'Record a payment', group_payer: 'Who paid', group_payee: 'To whom',
  group_pick_member: 'Choose…', group_amount: 'Amount', group_note: 'Note (optional)',
  group_need_payer: 'Choose who paid.', group_need_payee: 'Choose who was paid.', group_pay_self: 'Someone cannot pay themselves.',
  group_need_amount: 'Enter an amount: a whole number from 1.', group_payment_recorded: 'Recorded: {from} paid {to} {amount}.',
  group_payments: 'Latest payments', group_no_payments: 'No payments yet.',
  group_confirm_void_payment: 'Void the payment {from} → {to} {amount}? It stays in the audit trail; the balances count it no more.',
  group_payment_voided: 'Voided: {from} → {to} {amount}.',
  group_mark_paid: 'Mark as paid', group_mark_paid_hint: 'Paid at the table? Record these transfers as payments in {group}.',
  group_confirm_mark_paid: 'Record these {count} transfer(s) as paid? The group\'s balances change at once.',
  group_marked_paid: 'Marked as paid: {count} payment(s) recorded in the group.',
  group_aliases: 'Also known as: {names}', group_net: 'Net', group_evenings_played: 'Evenings', group_hands: 'Hands played',
  group_wins: 'Wins', group_self_draws: 'Self-draws', group_deal_ins: 'Deal-ins', group_of_hands: '{count} ({rate} of hands)',
  group_average_per_win: 'Average per win', group_average: '{average} {unit} over {wins} wins', group_biggest_hand: 'Biggest hand',
  group_longest_streak: 'Longest dealer streak', group_figures_rest_on: 'From {hands} hands ({full} entered with tiles, {quick} quick).',
  group_chart: 'Net money, evening by evening', group_chart_label: 'Cumulative net money of {name}: {total} now',
  group_head_to_head: 'Head to head', group_no_head_to_head: 'No games against other members yet.',
  group_by_ruleset: 'By rules', group_evenings_hands: '{evenings} evening(s), {hands} hands', group_patterns: 'Patterns scored',
  group_patterns_rest_on: 'Counted from the {full} hand(s) entered with tiles (a quick entry records no pattern).',
  group_share_hint: 'Scan this on another phone to join the group.', group_share_member: 'Member link',
  group_share_member_warning: 'Anyone with this link can keep score in every evening of the group and record payments.',
  group_share_read_warning: 'This link shows the group and its evenings and cannot change them.',
  group_member_link_unknown: 'This phone does not know the member link: ask whoever started the group.',
  group_read_link_unknown: 'This phone does not know the read-only link: ask whoever started the group.',
  group_qr_member_alt: 'QR code of the member link',
  share_group_instead: 'This evening was opened with the group\'s link: to invite someone, share the group.',
  group_offline: 'No connection: a group\'s pages need the server. Evenings already open on this phone still work offline.',
  group_not_found: 'This group does not exist on the server.',
  group_link_replaced: 'This group link has been replaced by a new one: ask the group for the new link.',
  group_forbidden: 'This link cannot do that (a read-only or member link).',
  group_field_from: 'who paid', group_field_to: 'to whom', group_field_amount: 'amount', group_field_note: 'note',
  group_field_name: 'name', group_field_session: 'evening', group_field_payments: 'payments', group_field_request: 'the request',
};

const ZH = {
  dealer_extra: '莊家台（連莊）', 'dealer_extra_1+2n': '1 + 2n（一般）', 'dealer_extra_1+n': '1 + n',
  dealer_extra_none: '不算', false_win: '詐胡', false_win_amount: '每家固定金額',
  false_win_as_self_draw: '當作自摸 … {unit}', false_win_by: '{player} 詐胡',
  false_win_default: '照自摸 {n} {unit}（一般）', false_win_hint: '詐胡者按下面的罰則賠給其他三家；本局重打，莊家與風不變。',
  false_win_penalty: '詐胡罰則', false_win_pays: '罰則：{penalty}', house_mark_added: '家規加算',
  house_mark_was: '家規（原 {base}）', house_rules: '家規', house_rules_changes: '{n} 項更改',
  lei_cap: '勒子上限（分）', max_dealer_extra: '莊家台上限（台）',
  need_false_win: '請點詐胡者。', not_false_win: '是真的胡牌', pattern_extra: '本規則沒有：打開即加算',
  patterns: '牌型：台數與開關', patterns_hint: '數值以該牌型的單位計；按張或按組計的牌型照樣按張或按組計。',
  penalty_amount: '每家 {amount}', penalty_self_draw: '每家收自摸 {n} {unit} 的錢', preset_none: '不用（照規則）', presets: '範本',
  search_patterns: '搜尋：名稱或 id', who_false_win: '誰詐胡？',
  also_played: '也打過：', apply: '套用', back_to_table: '回牌桌', cancel: '取消', change: '更改',
  change_seat: '換人', change_seat_hint: '從下一局起由新玩家坐這個位置，沿用該位置的莊序與連莊。',
  coming_back: '回來的人：', confirm_discard: '捨棄這一局？它從未記錄到伺服器。',
  confirm_forget: '在這支手機移除「{name}」？沒有分享連結就無法再開啟。', confirm_correct: '用這個取代第 {n} 局？之後各局重新計算。', confirm_restore: '讓第 {n} 局重新計算？', confirm_void: '作廢第 {n} 局？它會留在紀錄中但不計分，之後各局重新計算。',
  continue_evening: '繼續牌局', copy_link: '複製連結', correct: '更正', correct_hand_n: '更正第 {n} 局',
  count: '計台', count_first: '排好牌後按「計台」看明細。', count_offline: '離線中：送出時由伺服器計台。',
  dealer: '莊', dice: '開局骰子', dice_hint: '點兩顆骰子，或都不點。',
  discard: '捨棄', edit: '修改', edit_waiting_hand: '修改待送的牌局', discarded_by: '放槍：', discarder_ready: '放槍者已聽牌',
  draw: '流局', draw_reason: '流局原因', enter_draw: '流局', enter_win: '胡牌',
  error_not_found: '伺服器上沒有這個牌局。', error_offline: '沒有連線。資料沒有遺失，恢復連線後再試。',
  error_server: '伺服器出了問題。資料沒有遺失，請再試一次。', error_token: '這支手機的連結打不開這個牌局，請重新開啟分享連結。',
  error_too_large: '資料太大。', evening_name: '牌局名稱',
  first_deals: '依座位順序（逆時針）輸入玩家，第一位先坐莊（東）。',
  flag_after_kong: '槓上開花', flag_declared_ready: '聽牌／立直', flag_last_tile: '海底',
  flowers: '花牌', forget: '從這支手機移除',
  hand_n: '第 {n} 局', hand_n_recorded: '第 {n} 局已記錄', hand_n_restored: '第 {n} 局重新計算',
  hand_n_voided: '第 {n} 局已作廢', hands_csv: '牌局明細 (CSV)', history: '紀錄', how_much: '多少？',
  link_copied: '已複製連結', meld_chow: '吃', meld_concealed_kong: '暗槓', meld_kong: '明槓', meld_pung: '碰',
  mode_full: '排牌', mode_quick: '快速', need_both_dice: '請點兩顆骰子（或都不點）。',
  need_discarder: '請點放槍者，或自摸。', need_seat: '請點要換的位置。', need_value: '請輸入整數。', need_winner: '請點胡牌者。',
  new_evening: '開新牌局', no_cap: '不設上限', no_hands_yet: '還沒有牌局。', no_rounding: '不取整',
  no_special_event: '無特殊', none: '無', nothing_to_pay: '不用付錢。', offline: '離線',
 
 options: '規則選項', other_session: '其他牌局',
  pdf_sheet: '結算單 (PDF)', pending: '待送出', pending_failed: '{count} 局被伺服器拒絕。', pending_hands: '{count} 局待送出。',
  player_n: '玩家 {n}', player_name: '名字', players_in_order: '玩家（依座位順序）', qr_alt: '分享連結的 QR 碼',
  queued: '已存在這支手機，恢復連線後自動送出。', reason_exhausted: '荒牌', reason_four_kongs: '四槓和局',
  reason_four_winds: '四風連和', record: '記錄', refused: '被拒絕', rejected_count: '{count} 局待送被拒絕，請看紀錄。',
  remove: '移除', restore: '恢復計算', retry: '再試一次', review: '查看', robbed_from: '搶槓：',
  robbing_kong: '搶槓', round_wind: '{wind}風', hand_wind: '{wind}局', round_to: '金額取整到',
  round_to_hint: '牌桌上最小的鈔票或硬幣。', ruleset: '規則', seat_changed: '{player} 從下一局起入座。', self_draw: '自摸',
  send_now: '立即送出', sent_count: '已送出 {count} 局。', settle: '結算', several_winners_hint: '一炮多響：逐一點選胡牌者。',
  shanghai_extras: '上海規則', shanghai_total: '花 {flowers} · 勒 {lei} · 番 {fan} → {points} 分',
  share: '分享', share_hint: '用另一支手機掃描，一起記帳。', share_via: '分享…',
  share_warning: '拿到這個連結的人都能記錄這個牌局。', showing_saved_copy: '離線中：顯示上次儲存的資料。',
  special_event: '特殊', stake_base_flower: '底分', stake_base_tai: '底', stake_per_tai_tai: '每台',
  stakes: '底台', start: '開始', streak_n: '連{n}', switch_language: '繁', tai_total: '合計 {total} 台',
  tap_tiles_below: '點下方的牌加入手牌。', target_hand: '手牌', target_meld: '副露', target_winning: '胡的牌',
  three_mouth: '三口', three_mouth_hint: '點兩位有三口關係的玩家。',
  tiles_in_hand: '手牌 {n} / {needed} 張', to_table: '到牌桌', toggle_concealed: '明/暗',
  transfers: '誰付誰', unit_fan: '番', unit_flower: '花', unit_lei: '勒', unit_points: '分', unit_short_points: '分',
  unit_short_tai: '台', unit_tai: '台', void: '作廢', voided: '已作廢', waiting_count: '{count} 局待送',
  wasteland_n: '荒番 {n}', which_seat: '哪個位置？', who_discarded: '誰放槍？（或自摸）',
  who_sits_down: '誰入座？', who_was_robbed: '誰被搶槓？', who_won: '誰胡？', win: '胡', winning_tile: '胡的牌',
  pays: '{payer} 付 {payee}', why_self_draw: '自摸', why_discard: '放槍', why_robbing_kong: '被搶槓',
  why_eight_flowers: '八仙過海／八花，照自摸付', why_seven_flowers_rob: '七搶一：持第八張花',
  why_base: '底 {amount}', why_tai: '{tai} 台 × {per_tai} = {amount}', why_tai_capped: '{tai} 台（上限；原 {from} 台）× {per_tai} = {amount}',
  why_dealer_extra: '莊家台：{dealer} 連{streak}，{formula} = {tai} 台 × {per_tai} = {amount}',
  'why_formula_1+2n': '1 + 2×{streak}', 'why_formula_1+n': '1 + {streak}',
  why_dealer_extra_capped: '莊家台：{dealer} 連{streak}，{formula} = {from}，上限 {tai} 台 × {per_tai} = {amount}',
  why_false_win: '詐胡', why_false_win_amount: '每家 {amount}',
  why_share: '{points} 分 × 底分 {base} = {amount}', why_share_breakdown: '花 {flowers} · 勒 {lei} · 番 {fan}',
  why_wasteland: '荒番加倍（荒番 {counter}）', why_wasteland_dice: '荒番加倍（荒番 {counter}，骰子 {dice}）',
  why_shares: '× {shares} 份',
  why_three_mouth_self_draw: '與 {payee} 三口：{payer} 付 5 份，其他人不付',
  why_three_mouth_discard: '三口：放槍給有三口關係的人，付 2 份',
  why_three_mouth_ready: '聽牌時放槍給有三口的人：付 1 份',
  why_three_mouth_ready_related: '與 {payee} 三口：{discarder} 聽牌放槍，{payer} 沒放槍也付 1 份',
  why_three_mouth_not_ready: '未聽牌放槍給有三口的人：獨付 2 份',
  preview: '每人付或收', preview_offline: '離線中：試算需要連線。', preview_waiting: '還有牌局待送出：送出後才能試算。', preview_failed: '無法試算：{message}',
  quick_tai_hint: '只填牌的台數，不含莊家台：莊家台（1 + 2n）另列一行自動加上。',
  change_preview: '會改變的', change_none: '其他局不變。', change_hand: '第 {n} 局', change_dealer: '莊 {before} → {after}',
  change_streak: '連莊 {before} → {after}', change_values: '{before} → {after} {unit}', change_voided: '作廢', change_restored: '重新計算',
  change_totals: '改後總計', hand_n_corrected: '第 {n} 局已更正', corrected_at: '{time} 更正', undo: '復原',
  hand_n_undone: '第 {n} 局已復原（作廢）', void_last: '作廢', still_offline: '仍然離線：牌局留在這支手機上。',
  show_name: '全名',
  check_field: '「{field}」不被接受，請檢查後再試。', field_name: '牌局名稱', field_players: '玩家',
  field_player: '玩家 {n}', field_stakes: '底台', field_base: '底', field_per_tai: '每台', field_max_tai: '台數上限',
  field_winners: '胡牌者', field_discarder: '放槍者', field_value: '台數', field_hand: '手牌', field_winning_tile: '胡的牌',
  field_dice: '骰子', field_three_mouth: '三口', field_round_to: '金額取整', field_seat: '位置', field_event: '特殊',
  need_name: '請輸入牌局名稱。', need_player: '請輸入玩家 {n} 的名字。', player_twice: '「{name}」重複了。',
  need_stake: '「{field}」請輸入 1 以上的整數。', need_cap: '台數上限請輸入 1 以上的整數，或留空。',
  need_winning_tile: '請點胡的牌（或選特殊）。', need_tiles: '胡牌前手牌要 {needed} 張，現在 {n} 張。',
  need_round_to: '取整請輸入 1 以上的整數，或留空。',
  rounding_note: '取整到 {unit} 的倍數，各人調整：{moves}。', rounding_note_none: '每人總計已是 {unit} 的倍數。',
  pdf_sheet_rounded: '結算單 (PDF)，取整到 {unit}',
  language: '語言', language_name: '繁體中文', big_text: '大字體',
  share_card: '分享成圖片', copy_text: '複製成文字', text_copied: '已複製摘要，可以貼到群組了。',
  card_saved: '圖片已下載。', summary_totals: '總計：{totals}', summary_transfers: '誰付誰：', summary_rounded: '（取整到 {unit}）',
  conflict_title: '另一支手機先記了', conflict_other: '這個牌局在另一支手機上有了變更。',
  since_hand: '第 {n} 局剛在另一支手機記錄：{summary}', since_changed: '第 {n} 局在另一支手機被更改：{summary}',
  since_voided: '第 {n} 局在另一支手機被作廢。', since_seat: '{player} 在另一支手機上替換了 {replaces}。',
  conflict_mine: '你的（尚未記錄）：{summary}', conflict_mine_change: '你的（尚未執行）：{what}',
  conflict_drop: '捨棄我的', conflict_keep_hand: '把我的記成下一局', conflict_keep: '仍然執行我的',
  conflict_dropped: '已捨棄你的。', error_stale: '另一支手機先改了這個牌局：請決定你的要怎麼處理。',
  review_conflict: '選擇', what_void: '作廢第 {n} 局', what_correct: '更正第 {n} 局', what_seat: '{player} 入座',
  what_close: '結束牌局', what_reopen: '重新開啟牌局',
  error_closed: '這個牌局已結束，不能再更改。請先在「結算」重新開啟。',
  error_read_only: '這是唯讀連結：只能查看，不能更改。',
  error_link_replaced: '這個連結已換成新的：請向牌桌上的人要新連結。',
  read_only_note: '唯讀連結：可以跟著看，不能更改。',
  closed_note: '牌局已於 {time} 結束（定案）。要更改請先在「結算」重新開啟。',
  end_evening: '結束牌局', confirm_end: '結束牌局？重新開啟前不能再記錄或更改；結算單會註明為定案。',
  evening_ended: '牌局已結束。', reopen_evening: '重新開啟', evening_reopened: '牌局已重新開啟。',
  share_write: '記帳連結', share_read: '唯讀連結（觀看）',
  share_read_warning: '這個連結只能查看牌局，不能更改。', share_read_unknown: '這支手機沒有唯讀連結：按「換新連結」取得兩個新連結。',
  new_links: '換新連結（舊連結失效）', confirm_new_links: '換新連結？拿著舊連結的手機都要重新開啟新連結。',
  new_links_done: '已換新連結：請重新分享。',
  qr_read_alt: '唯讀連結的 QR 碼',  // 牌友會（issue 19）：牌友會首頁、開新牌局、排名、結餘、個人頁、分享。
  groups: '牌友會', group_start: '成立牌友會', group_name: '牌友會名稱',
  group_create: '成立', group_need_name: '請輸入牌友會名稱。',
  confirm_forget_group: '在這支手機移除牌友會「{name}」？沒有分享連結就無法再開啟。',
  group_home: '牌友會：{name}', group_other: '其他牌局或牌友會', group_to_home: '回牌友會',
  group_read_only_note: '唯讀連結：可以跟著看，不能更改。',
  group_new_evening: '開新牌局', group_standings: '排名', group_balances: '結餘', group_share: '分享牌友會',
  group_evenings: '牌局', group_no_evenings: '還沒有牌局。', group_all_evenings: '全部 {count} 場牌局', group_open: '進行中', group_ended: '已結束',
  group_evening_line: '{day} · {hands} 局', group_members: '成員', group_no_members: '還沒有成員：請加入來賓。',
  group_roster: '依座位順序點四位成員', group_tap_member: '點下方的成員',
  group_first_deals: '依座位順序（逆時針），第一位先坐莊（東）。點座位可清空。',
  group_add_guest: '加入來賓', group_add: '加入', group_guest_name: '來賓名字', group_need_guest_name: '請輸入來賓的名字。',
  group_need_pick: '請選玩家 {n}。',
  group_sheet: '本期牌友會報表 (PDF)', group_standings_csv: '排名 (CSV)',
  group_balances_csv: '結餘 (CSV)', group_payments_csv: '付款紀錄 (CSV)',
  group_period: '期間', group_all_time: '全部', group_this_year: '今年（{year}）',
  group_no_standings: '這段期間沒有牌局。',
  group_standing_line: '{evenings} 場 · {hands} 局 · 胡 {wins} 次（{win_rate}）· 放槍率 {deal_in_rate}',
  group_open_balances: '未結清', group_balances_hint: '各場輸贏加上付出的，減去收到的。點名字看明細。',
  group_because_payment: '付款', group_record_payment: '記錄付款', group_payer: '付款人', group_payee: '收款人',
  group_pick_member: '請選擇…', group_amount: '金額', group_note: '備註（可不填）',
  group_need_payer: '請選付款人。', group_need_payee: '請選收款人。', group_pay_self: '不能付給自己。',
  group_need_amount: '請輸入金額：1 以上的整數。', group_payment_recorded: '已記錄：{from} 付 {to} {amount}。',
  group_payments: '最近的付款', group_no_payments: '還沒有付款。',
  group_confirm_void_payment: '作廢付款 {from} → {to} {amount}？會留在紀錄中，但不再計入結餘。',
  group_payment_voided: '已作廢：{from} → {to} {amount}。',
  group_mark_paid: '標記為已付', group_mark_paid_hint: '在牌桌上已付清？把這些轉帳記為「{group}」的付款。',
  group_confirm_mark_paid: '把這 {count} 筆轉帳記為已付？牌友會的結餘會立即改變。',
  group_marked_paid: '已標記為已付：在牌友會記錄了 {count} 筆付款。',
  group_aliases: '別名：{names}', group_net: '輸贏', group_evenings_played: '場數', group_hands: '局數',
  group_wins: '胡牌', group_self_draws: '自摸', group_deal_ins: '放槍', group_of_hands: '{count} 次（佔局數 {rate}）',
  group_average_per_win: '平均每次胡', group_average: '{average} {unit}（{wins} 次胡）', group_biggest_hand: '最大的一手',
  group_longest_streak: '最長連莊', group_figures_rest_on: '依據 {hands} 局（排牌 {full} 局、快速 {quick} 局）。',
  group_chart: '累計輸贏（逐場）', group_chart_label: '{name} 的累計輸贏：目前 {total}',
  group_head_to_head: '對戰', group_no_head_to_head: '還沒有和其他成員對戰。',
  group_by_ruleset: '依規則', group_evenings_hands: '{evenings} 場、{hands} 局', group_patterns: '胡過的牌型',
  group_patterns_rest_on: '依據 {full} 局排牌記錄（快速記錄沒有牌型）。',
  group_share_hint: '用另一支手機掃描，加入牌友會。', group_share_member: '成員連結',
  group_share_member_warning: '拿到這個連結的人都能記錄牌友會的每一場牌局和付款。',
  group_share_read_warning: '這個連結只能查看牌友會和牌局，不能更改。',
  group_member_link_unknown: '這支手機沒有成員連結：請向成立牌友會的人要。',
  group_read_link_unknown: '這支手機沒有唯讀連結：請向成立牌友會的人要。',
  group_qr_member_alt: '成員連結的 QR 碼',
  share_group_instead: '這個牌局是用牌友會的連結開啟的：要邀請別人，請分享牌友會。',
  group_offline: '沒有連線：牌友會的頁面需要伺服器。這支手機上已開啟的牌局離線仍可使用。',
  group_not_found: '伺服器上沒有這個牌友會。',
  group_link_replaced: '這個牌友會連結已換成新的：請向牌友要新連結。',
  group_forbidden: '這個連結不能做這件事（唯讀或成員連結）。',
  group_field_from: '付款人', group_field_to: '收款人', group_field_amount: '金額', group_field_note: '備註',
  group_field_name: '名字', group_field_session: '牌局', group_field_payments: '付款', group_field_request: '請求',
};

/**
 * 简体中文, written for a Shanghainese table rather than converted from the
 * traditional table: mainland words (点炮, 荒庄, 链接, 服务器, 二维码, 撤销)
 * where Taiwan says something else.
 */
const HANS = {
  dealer_extra: '庄家台（连庄）', 'dealer_extra_1+2n': '1 + 2n（一般）', 'dealer_extra_1+n': '1 + n',
  dealer_extra_none: '不算', false_win: '诈胡', false_win_amount: '每家固定金额',
  false_win_as_self_draw: '按自摸 … {unit} 算', false_win_by: '{player} 诈胡',
  false_win_default: '按自摸 {n} {unit}（一般）', false_win_hint: '诈胡的人按下面的罚则赔给另外三家；这局重打，庄家和风位不变。',
  false_win_penalty: '诈胡罚则', false_win_pays: '罚则：{penalty}', house_mark_added: '家规加算',
  house_mark_was: '家规（原来 {base}）', house_rules: '家规', house_rules_changes: '改了 {n} 项',
  lei_cap: '勒子上限（分）', max_dealer_extra: '庄家台上限（台）',
  need_false_win: '请点诈胡的人。', not_false_win: '是真胡了', pattern_extra: '这套规则里没有：打开就加算',
  patterns: '牌型：分值和开关', patterns_hint: '分值按该牌型自己的单位算；按张或按组算的牌型照样按张或按组算。',
  penalty_amount: '每家 {amount}', penalty_self_draw: '每家按自摸 {n} {unit} 付', preset_none: '不用（按原规则）', presets: '预设',
  search_patterns: '搜索：名称或 id', who_false_win: '谁诈胡？',
  also_played: '也打过：', apply: '应用', back_to_table: '回到牌桌', cancel: '取消', change: '修改',
  change_seat: '换人', change_seat_hint: '从下一局起由新玩家坐这个位子，沿用这个位子的坐庄顺序和连庄。',
  coming_back: '回来的人：', confirm_discard: '放弃这一局？它还没有记到服务器上。',
  confirm_forget: '在这台手机上删掉“{name}”？没有分享链接就再也打不开了。', confirm_correct: '用这个替换第 {n} 局？后面各局会重新计算。', confirm_restore: '恢复第 {n} 局？它重新计分，后面各局会重新计算。', confirm_void: '作废第 {n} 局？它留在记录里但不计分，后面各局会重新计算。',
  continue_evening: '继续牌局', copy_link: '复制链接', correct: '更正', correct_hand_n: '更正第 {n} 局',
  count: '算分', count_first: '把牌排好，再点“算分”看明细。', count_offline: '没有网络：发送后由服务器算分。',
  dealer: '庄', dice: '开局掷的骰子', dice_hint: '两颗骰子都点，或者都不点。',
  discard: '放弃', edit: '修改', edit_waiting_hand: '修改待发送的牌局', discarded_by: '点炮：', discarder_ready: '点炮的人已听牌',
  draw: '流局', draw_reason: '为什么流局', enter_draw: '流局', enter_win: '胡牌',
  error_not_found: '服务器上没有这个牌局。', error_offline: '没有网络。数据没有丢，等网络恢复后再试。',
  error_server: '服务器出了问题。数据没有丢，请再试一次。', error_token: '这台手机的链接打不开这个牌局，请重新打开分享链接。',
  error_too_large: '一次发送的数据太多。', evening_name: '牌局名称',
  first_deals: '按座位顺序（逆时针）输入玩家，第一位先坐庄（东）。',
  flag_after_kong: '杠上开花', flag_declared_ready: '报听／立直', flag_last_tile: '海底捞月',
  flowers: '花牌', forget: '从这台手机删掉',
  hand_n: '第 {n} 局', hand_n_recorded: '第 {n} 局已记录', hand_n_restored: '第 {n} 局已恢复计分',
  hand_n_voided: '第 {n} 局已作废', hands_csv: '牌局明细 (CSV)', history: '记录', how_much: '多少？',
  link_copied: '链接已复制', meld_chow: '吃', meld_concealed_kong: '暗杠', meld_kong: '明杠', meld_pung: '碰',
  mode_full: '按牌输入', mode_quick: '快速', need_both_dice: '两颗骰子都点（或者都不点）。',
  need_discarder: '请点谁点炮，或者自摸。', need_seat: '请点要换的位子。', need_value: '请输入整数。', need_winner: '请点谁胡了。',
  new_evening: '开新牌局', no_cap: '不封顶', no_hands_yet: '还没有打过一局。', no_rounding: '不取整',
  no_special_event: '没有特殊情况', none: '无', nothing_to_pay: '谁也不用付钱。', offline: '离线',
  options: '规则选项', other_session: '其他牌局',
  pdf_sheet: '结算单 (PDF)', pending: '待发送', pending_failed: '服务器拒收了 {count} 局。', pending_hands: '还有 {count} 局待发送。',
  player_n: '玩家 {n}', player_name: '名字', players_in_order: '玩家（按座位顺序）', qr_alt: '分享链接的二维码',
  queued: '已存在这台手机上，网络恢复后自动发送。', reason_exhausted: '荒庄（牌摸完了）', reason_four_kongs: '四杠流局',
  reason_four_winds: '四风连打', record: '记录', refused: '被拒收', rejected_count: '有 {count} 局待发送的被拒收，请看记录。',
  remove: '删掉', restore: '恢复计分', retry: '再试一次', review: '查看', robbed_from: '被抢杠：',
  robbing_kong: '抢杠', round_wind: '{wind}风', hand_wind: '{wind}局', round_to: '金额取整到',
  round_to_hint: '桌上最小的纸币或硬币。', ruleset: '规则', seat_changed: '{player} 从下一局起上桌。', self_draw: '自摸',
  send_now: '马上发送', sent_count: '已发送 {count} 局。', settle: '结算', several_winners_hint: '一炮多响：把胡的人逐个点上。',
  shanghai_extras: '上海规则', shanghai_total: '花 {flowers} · 勒 {lei} · 番 {fan} → {points} 分',
  share: '分享', share_hint: '用另一台手机扫一扫，一起记账。', share_via: '分享…',
  share_warning: '拿到这个链接的人都能给这个牌局记分。', showing_saved_copy: '没有网络：显示的是上次保存的数据。',
  special_event: '特殊情况', stake_base_flower: '底分', stake_base_tai: '底', stake_per_tai_tai: '每台',
  stakes: '底和台', start: '开始', streak_n: '连{n}', switch_language: '简', tai_total: '合计 {total} 台',
  tap_tiles_below: '点下面的牌加到手牌里。', target_hand: '手牌', target_meld: '吃碰杠', target_winning: '胡的牌',
  three_mouth: '三口', three_mouth_hint: '点两位有三口关系的玩家。',
  tiles_in_hand: '手牌 {n} / {needed} 张', to_table: '去牌桌', toggle_concealed: '明/暗',
  transfers: '谁付给谁', unit_fan: '番', unit_flower: '花', unit_lei: '勒', unit_points: '分', unit_short_points: '分',
  unit_short_tai: '台', unit_tai: '台', void: '作废', voided: '已作废', waiting_count: '{count} 局待发',
  wasteland_n: '荒番 {n}', which_seat: '哪个位子？', who_discarded: '谁点炮？（或者自摸）',
  who_sits_down: '谁上桌？', who_was_robbed: '谁被抢杠？', who_won: '谁胡了？', win: '胡', winning_tile: '胡的牌',
  pays: '{payer} 付给 {payee}', why_self_draw: '自摸', why_discard: '点炮', why_robbing_kong: '被抢杠',
  why_eight_flowers: '八仙过海／八花，按自摸付', why_seven_flowers_rob: '七抢一：手里有第八张花',
  why_base: '底 {amount}', why_tai: '{tai} 台 × {per_tai} = {amount}', why_tai_capped: '{tai} 台（封顶；原来 {from} 台）× {per_tai} = {amount}',
  why_dealer_extra: '庄家台：{dealer} 连{streak}，{formula} = {tai} 台 × {per_tai} = {amount}',
  'why_formula_1+2n': '1 + 2×{streak}', 'why_formula_1+n': '1 + {streak}',
  why_dealer_extra_capped: '庄家台：{dealer} 连{streak}，{formula} = {from}，封顶 {tai} 台 × {per_tai} = {amount}',
  why_false_win: '诈胡', why_false_win_amount: '每家 {amount}',
  why_share: '{points} 分 × 底分 {base} = {amount}', why_share_breakdown: '花 {flowers} · 勒 {lei} · 番 {fan}',
  why_wasteland: '荒番翻倍（荒番 {counter}）', why_wasteland_dice: '荒番翻倍（荒番 {counter}，骰子 {dice}）',
  why_shares: '× {shares} 份',
  why_three_mouth_self_draw: '和 {payee} 是三口：{payer} 付 5 份，其他人不付',
  why_three_mouth_discard: '三口：点炮给有三口关系的人，付 2 份',
  why_three_mouth_ready: '听牌时点炮给有三口的人：付 1 份',
  why_three_mouth_ready_related: '和 {payee} 是三口：{discarder} 听牌点炮，{payer} 没点炮也付 1 份',
  why_three_mouth_not_ready: '没听牌点炮给有三口的人：一个人付 2 份',
  preview: '每人付多少、收多少', preview_offline: '没有网络：试算要联网。', preview_waiting: '还有牌局待发送：发送后才能试算。', preview_failed: '没法试算：{message}',
  quick_tai_hint: '只填牌本身的台数，不含庄家台：庄家台（1 + 2n）单独一行自动加上。',
  change_preview: '会变的地方', change_none: '其他各局不变。', change_hand: '第 {n} 局', change_dealer: '庄 {before} → {after}',
  change_streak: '连庄 {before} → {after}', change_values: '{before} → {after} {unit}', change_voided: '作废', change_restored: '重新计分',
  change_totals: '改后的总分', hand_n_corrected: '第 {n} 局已更正', corrected_at: '{time} 更正', undo: '撤销',
  hand_n_undone: '第 {n} 局已撤销（作废）', void_last: '作废', still_offline: '还是没有网络：牌局先存在这台手机上。',
  show_name: '全名',
  check_field: '“{field}”不对，请检查后再试。', field_name: '牌局名称', field_players: '玩家',
  field_player: '玩家 {n}', field_stakes: '底和台', field_base: '底', field_per_tai: '每台', field_max_tai: '台数上限',
  field_winners: '胡的人', field_discarder: '点炮的人', field_value: '分值', field_hand: '手牌', field_winning_tile: '胡的牌',
  field_dice: '骰子', field_three_mouth: '三口', field_round_to: '金额取整', field_seat: '位子', field_event: '特殊情况',
  need_name: '请给牌局起个名字。', need_player: '请输入玩家 {n} 的名字。', player_twice: '“{name}”写了两次。',
  need_stake: '“{field}”请输入 1 以上的整数。', need_cap: '台数上限请输入 1 以上的整数，或者空着。',
  need_winning_tile: '请点胡的牌（或者选特殊情况）。', need_tiles: '胡牌前手牌要 {needed} 张，现在是 {n} 张。',
  need_round_to: '取整请输入 1 以上的整数，或者空着。',
  rounding_note: '取整到 {unit} 的倍数，每人调整：{moves}。', rounding_note_none: '每人的总分已经是 {unit} 的倍数。',
  pdf_sheet_rounded: '结算单 (PDF)，取整到 {unit}',
  conflict_title: '另一台手机先记了', conflict_other: '这个牌局在另一台手机上改过了。',
  since_hand: '第 {n} 局刚在另一台手机上记了：{summary}', since_changed: '第 {n} 局在另一台手机上改了：{summary}',
  since_voided: '第 {n} 局在另一台手机上作废了。', since_seat: '{player} 在另一台手机上换下了 {replaces}。',
  conflict_mine: '你的（还没记）：{summary}', conflict_mine_change: '你的（还没做）：{what}',
  conflict_drop: '不要我的', conflict_keep_hand: '把我的记成下一局', conflict_keep: '照样做我的',
  conflict_dropped: '你的已经放弃了。', error_stale: '另一台手机先改了这个牌局：请选择你的怎么处理。',
  review_conflict: '选择', what_void: '作废第 {n} 局', what_correct: '更正第 {n} 局', what_seat: '{player} 上桌',
  what_close: '结束牌局', what_reopen: '重新打开牌局',
  error_closed: '这个牌局已经结束，不能再改。要改请先在“结算”里重新打开。',
  error_read_only: '这是只读链接：只能看，不能改。',
  error_link_replaced: '这个链接已经换成新的了：请找牌桌上的人要新链接。',
  read_only_note: '只读链接：可以跟着看，不能改。',
  closed_note: '牌局已在 {time} 结束（定稿）。要改请先在“结算”里重新打开。',
  end_evening: '结束牌局', confirm_end: '结束牌局？重新打开之前不能再记分或修改；结算单上会注明已定稿。',
  evening_ended: '牌局已结束。', reopen_evening: '重新打开', evening_reopened: '牌局已重新打开。',
  share_write: '记账链接', share_read: '只读链接（观看）',
  share_read_warning: '这个链接只能看牌局，不能改。', share_read_unknown: '这台手机没有只读链接：点“换新链接”拿到两个新链接。',
  new_links: '换新链接（旧链接失效）', confirm_new_links: '换新链接？拿着旧链接的手机都要重新打开新链接。',
  new_links_done: '新链接已生成：请重新分享。',
  qr_read_alt: '只读链接的二维码',
  // Languages, big text, and the evening as a picture or a chat message (issue 20).
  language: '语言', language_name: '简体中文', big_text: '大字号',
  share_card: '分享成图片', copy_text: '复制成文字', text_copied: '摘要已复制，可以粘贴到群里了。',
  card_saved: '图片已下载。', summary_totals: '总分：{totals}', summary_transfers: '谁付给谁：', summary_rounded: '（取整到 {unit}）',
  // 牌友会（issue 19）：牌友会首页、开新牌局、排名、余额、个人页、分享。大陆的说法（成员、余额、点炮、链接、二维码），不是逐字转换。
  groups: '牌友会', group_start: '创建牌友会', group_name: '牌友会名称',
  group_create: '创建', group_need_name: '请给牌友会起个名字。',
  confirm_forget_group: '在这台手机上删掉牌友会“{name}”？没有分享链接就再也打不开了。',
  group_home: '牌友会：{name}', group_other: '其他牌局或牌友会', group_to_home: '回牌友会',
  group_read_only_note: '只读链接：可以跟着看，不能改。',
  group_new_evening: '开新牌局', group_standings: '排名', group_balances: '余额', group_share: '分享牌友会',
  group_evenings: '牌局', group_no_evenings: '还没有牌局。', group_all_evenings: '全部 {count} 场牌局', group_open: '进行中', group_ended: '已结束',
  group_evening_line: '{day} · {hands} 局', group_members: '成员', group_no_members: '还没有成员：请添加客人。',
  group_roster: '按座位顺序点四位成员', group_tap_member: '点下面的成员',
  group_first_deals: '按座位顺序（逆时针），第一位先坐庄（东）。点座位可以清空。',
  group_add_guest: '添加客人', group_add: '添加', group_guest_name: '客人的名字', group_need_guest_name: '请输入客人的名字。',
  group_need_pick: '请选玩家 {n}。',
  group_sheet: '牌友会报表 (PDF)', group_standings_csv: '排名 (CSV)',
  group_balances_csv: '余额 (CSV)', group_payments_csv: '付款记录 (CSV)',
  group_period: '时间段', group_all_time: '全部', group_this_year: '今年（{year}）',
  group_no_standings: '这段时间没有牌局。',
  group_standing_line: '{evenings} 场 · {hands} 局 · 胡 {wins} 次（{win_rate}）· 点炮率 {deal_in_rate}',
  group_open_balances: '未结清', group_balances_hint: '每场的输赢加上付出的钱，减去收到的钱。点名字看明细。',
  group_because_payment: '付款', group_record_payment: '记一笔付款', group_payer: '付款人', group_payee: '收款人',
  group_pick_member: '请选择…', group_amount: '金额', group_note: '备注（可以不填）',
  group_need_payer: '请选付款人。', group_need_payee: '请选收款人。', group_pay_self: '不能付给自己。',
  group_need_amount: '请输入金额：1 以上的整数。', group_payment_recorded: '已记下：{from} 付给 {to} {amount}。',
  group_payments: '最近的付款', group_no_payments: '还没有付款。',
  group_confirm_void_payment: '作废付款 {from} → {to} {amount}？记录会保留，但余额不再算它。',
  group_payment_voided: '已作废：{from} → {to} {amount}。',
  group_mark_paid: '标记为已付', group_mark_paid_hint: '在牌桌上已经付清了？把这些转账记成“{group}”的付款。',
  group_confirm_mark_paid: '把这 {count} 笔转账记为已付？牌友会的余额会马上改变。',
  group_marked_paid: '已标记为已付：在牌友会记了 {count} 笔付款。',
  group_aliases: '别名：{names}', group_net: '输赢', group_evenings_played: '场数', group_hands: '局数',
  group_wins: '胡牌', group_self_draws: '自摸', group_deal_ins: '点炮', group_of_hands: '{count} 次（占局数 {rate}）',
  group_average_per_win: '平均每次胡', group_average: '{average} {unit}（胡 {wins} 次）', group_biggest_hand: '最大的一手',
  group_longest_streak: '最长连庄', group_figures_rest_on: '根据 {hands} 局（按牌输入 {full} 局、快速 {quick} 局）。',
  group_chart: '累计输赢（逐场）', group_chart_label: '{name} 的累计输赢：目前 {total}',
  group_head_to_head: '对战', group_no_head_to_head: '还没有和其他成员对战过。',
  group_by_ruleset: '按规则', group_evenings_hands: '{evenings} 场、{hands} 局', group_patterns: '胡过的牌型',
  group_patterns_rest_on: '根据 {full} 局按牌输入的记录（快速记录没有牌型）。',
  group_share_hint: '用另一台手机扫一扫，加入牌友会。', group_share_member: '成员链接',
  group_share_member_warning: '拿到这个链接的人都能给牌友会的每场牌局记分、记付款。',
  group_share_read_warning: '这个链接只能看牌友会和牌局，不能改。',
  group_member_link_unknown: '这台手机没有成员链接：请找创建牌友会的人要。',
  group_read_link_unknown: '这台手机没有只读链接：请找创建牌友会的人要。',
  group_qr_member_alt: '成员链接的二维码',
  share_group_instead: '这个牌局是用牌友会的链接打开的：要邀请别人，请分享牌友会。',
  group_offline: '没有网络：牌友会的页面要连服务器。这台手机上已经打开的牌局离线也能用。',
  group_not_found: '服务器上没有这个牌友会。',
  group_link_replaced: '这个牌友会链接已经换成新的了：请找牌友要新链接。',
  group_forbidden: '这个链接不能做这件事（只读链接或成员链接）。',
  group_field_from: '付款人', group_field_to: '收款人', group_field_amount: '金额', group_field_note: '备注',
  group_field_name: '名字', group_field_session: '牌局', group_field_payments: '付款', group_field_request: '请求',
};

/**
 * The languages, in the order the switch goes through them (繁 / 简 / EN):
 * `id` (kept in storage), the page's `lang` tag (also sent as Accept-Language,
 * so that the server's messages and pattern names come back in it, and as the
 * picture's ?lang=), `report` for the PDF's lang=, its messages, option labels
 * and special-event names, `spelling` for the tile and wind characters it
 * writes differently, and `server` when the server's messages are in that
 * language. A new language is one more entry here with its tables; a test
 * checks that every table has every key.
 */
const LANGUAGES = [
  {id: 'zh', tag: 'zh-Hant', report: 'zh', messages: ZH, options: {
    dealer_bonus: '莊家台（1 + 2n）', multiple_winners: '一炮多響', max_tai: '台數上限', see_flower_see_word: '見花見字'},
  events: {heavenly_win: '天胡', earthly_win: '地胡', heavenly_ready: '天聽', earthly_ready: '地聽',
           eight_flowers: '八仙過海 / 八花', seven_flowers_rob: '七搶一'}, spelling: {}},
  {id: 'zh-Hans', tag: 'zh-Hans', report: 'zh-Hans', messages: HANS, options: {
    dealer_bonus: '庄家台（1 + 2n）', multiple_winners: '一炮多响', max_tai: '台数上限', see_flower_see_word: '见花见字'},
  events: {heavenly_win: '天胡', earthly_win: '地胡', heavenly_ready: '天听', earthly_ready: '地听',
           eight_flowers: '八仙过海 / 八花', seven_flowers_rob: '七抢一'},
  spelling: {萬: '万', 條: '条', 東: '东', 發: '发', 蘭: '兰'}},
  {id: 'en', tag: 'en', report: 'en', messages: EN, server: true, options: {
    dealer_bonus: 'Dealer extra 莊家台 (1 + 2n)', multiple_winners: 'Several winners on one discard (一炮多響)',
    max_tai: 'Cap on 台', see_flower_see_word: '見花見字'},
  events: {heavenly_win: '天胡', earthly_win: '地胡', heavenly_ready: '天聽', earthly_ready: '地聽',
           eight_flowers: '八仙過海 / 八花', seven_flowers_rob: '七搶一'}, spelling: {}},
];

function byId(id) {
  return LANGUAGES.find((entry) => entry.id === id);
}

/** The language of one BCP 47 tag: zh-CN, zh-SG and zh-Hans read simplified, any other zh traditional. */
function languageOfTag(tag) {
  const lower = tag.toLowerCase();
  if (/^zh-(hans|cn|sg|my)(-|$)/.test(lower)) return byId('zh-Hans');
  if (lower === 'zh' || lower.startsWith('zh-')) return byId('zh');
  if (lower === 'en' || lower.startsWith('en-')) return byId('en');
  return null;
}

/** The first of the phone's preferred languages (navigator.languages) that the page speaks; else English. */
function fromBrowser() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || ''];
  return wanted.map(languageOfTag).find(Boolean) || byId('en');
}

let current = byId(read('lang', null)) || fromBrowser();

export function t(key, vars = {}) {
  const text = current.messages[key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

/** Whether the server's messages are in the language in use. */
export function serverSpeaks() {
  return Boolean(current.server);
}

/** The BCP 47 tag of the language in use, for dates and times, Accept-Language and the picture. */
export function languageTag() {
  return current.tag;
}

/** The PDF's lang= for the language in use ('zh', 'zh-Hans', 'en'). */
export function languageId() {
  return current.report;
}

/** The lang attribute of Chinese names from the API (pattern names): simplified on a simplified page. */
export function chineseTag() {
  return current.id === 'zh-Hans' ? 'zh-Hans' : 'zh-Hant';
}

export function applyLanguage() {
  document.documentElement.lang = current.tag;
}

/** The next language of the switch. */
export function otherLanguage() {
  return LANGUAGES[(LANGUAGES.indexOf(current) + 1) % LANGUAGES.length].id;
}

/** The name of the next language of the switch, in that language ("English", "繁體中文", "简体中文"). */
export function otherLanguageName() {
  return byId(otherLanguage()).messages.language_name;
}

export function setLanguage(next) {
  current = byId(next) || current;
  write('lang', current.id);
  applyLanguage();
}

/**
 * The text for this language of a {language: text} object from the API (a house-rule preset's name):
 * by the language's tag or id, else, on a Chinese page, the other script's (keyed zh-Hant or zh), else English.
 */
export function inLanguage(texts) {
  if (typeof texts === 'string') return texts;
  const chinese = current.id === 'en' ? [] : ['zh-Hant', 'zh', 'zh-Hans'];
  const key = [current.tag, current.id, ...chinese, 'en'].find((name) => texts?.[name]);
  return key ? texts[key] : '';
}

export function optionLabel(option) {
  return current.options[option.id] || option.description || option.id;
}

export function eventLabel(id) {
  return current.events[id] || id;
}

/** Tile and wind characters as the language writes them ("五万" in 简体; tile faces keep what is printed on a tile). */
export function spell(text) {
  return [...text].map((char) => current.spelling[char] || char).join('');
}

/** Winds are shown as 東南西北 (东南西北 in 简体) in every language. */
export function windName(wind) {
  return spell(WIND_NAMES[wind] || wind);
}

/** Every message table by language id, for the test that each has every key. */
export function messageTables() {
  return Object.fromEntries(LANGUAGES.map((entry) => [entry.id, entry.messages]));
}
