// The server's API: JSON requests whose errors carry the server's message, and the
// websocket of a table.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function request(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new ApiError(0, "the server cannot be reached: is eights serve still running?");
  }
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
  }
  return data;
}

export const get = (url) => request("GET", url);
export const post = (url, body = {}) => request("POST", url, body);

// A table's websocket: onMessage(message) for each message of the server, onClose(event).
export function connect(gameId, onMessage, onClose) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  ws.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  ws.addEventListener("close", onClose);
  return {
    send(message) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      else ws.addEventListener("open", () => ws.send(JSON.stringify(message)), { once: true });
    },
    close() {
      ws.removeEventListener("close", onClose);
      ws.close();
    },
  };
}
