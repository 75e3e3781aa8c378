// What the store's parts return: a change, which the Store (store.js) applies. A part reads the
// tab (its state and the store's own fields) and never writes it, so each one can be driven
// alone with a plain object and its answer compared. Every field of a change is optional:
//
//   moves     moves for the server, each sent with its move number (seq), in order. A step is a
//             message, or {move, optional, state}: `state` is set once that move went out, and an
//             `optional` move refused does not stop the rest. A refused move stops the change
//             there: nothing after it is applied, `orElse` (a change) is applied instead, if any.
//   forget    the ids of entries to drop from "Your games"; `remember` an entry to save there
//             (the state's `games` is read back from storage after either).
//   daily     what this browser's daily memory keeps: {game} (the day's game, or null), {name},
//             {record: a scored day} (the state's `days` is read back after it).
//   tab       the store's own fields: ref, opening, announce, start, fellBack.
//   giveUp    true: no reply will come for the moves in flight (`reset`: a new socket's start).
//   state     fields of the state to set.
//   send      messages for the server as they are (no seq).
//   say       a message for the player: {kind, say, ...facts}, worded by the view.
//   match     an intent of the match part (match_moves.js) to call: [name, ...arguments].
//   event     what the listeners are told, last. A `saved: null` in it is filled in with
//             whether `remember` kept the entry.
//   ok        what the player's intent answers (true unless said): false when the change only
//             says why nothing happened.
//
// A part answers null when there is nothing to do (an intent then answers false).

/** A message for the player: `say` names it, the rest are the facts the view words it with. */
export const said = (kind, say, facts = {}) => ({ kind, say, ...facts });

/** A message in the server's own words (an error it explained). */
export const serverSaid = (message) => said("miss", "server", { text: message.message || message.code, code: message.code });

/**
 * The last word's miss (refused, too short, no path for a letter) goes once a new word is under
 * way: it is about a word no longer on screen. Other messages stay until the next one.
 */
export const clearsMiss = (state) =>
  state.message?.kind === "miss" && (state.message.say === "result" || state.message.say === "no_path") ? { message: null } : {};

/** What the message line says of a word being typed (its paths, a letter refused) goes with the chain. */
export const clearsTyping = (state) =>
  ["spell_path", "no_path", "struck_out"].includes(state.message?.say) ? { message: null } : {};

/** A hint for the player, nothing done: the intent answers false. */
export const hint = (say, facts = {}) => ({ say: said("info", say, facts), event: { type: "hint" }, ok: false });
