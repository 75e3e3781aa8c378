// Definitions on a page that plays nothing (a replay): its words show what they mean like the
// game's do, over a websocket opened when the first word is asked for, not before (most
// viewers never ask). Requests made while it opens wait for it.

import { Connection, socketUrl } from "./connection.js";
import { Definitions } from "./definitions.js";
import { DefinitionPanel } from "./view/definition.js";

/** Wire the page's definition popover; `wordlist()` names the list its words are from. */
export function startDefinitions(document, { wordlist, titleOf }) {
  let connection = null;
  const waiting = [];
  const open = () => {
    const socket = new Connection(socketUrl(window.location), {
      onOpen: () => waiting.splice(0).forEach((message) => socket.send(message)),
      onMessage: (message) => definitions.receive(message),
    });
    socket.start();
    return socket;
  };
  const definitions = new Definitions((message) => {
    connection ??= open();
    if (!connection.send(message)) waiting.push(message);
    return true;
  });
  return new DefinitionPanel(document, { ask: (word, list) => definitions.ask(word, list), wordlist, titleOf });
}
