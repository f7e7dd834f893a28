// The Switchyard inspector page. Entries are HAR 1.2 entries with Switchyard's custom fields
// (_service, _endpoint, _requestID, _attempt, _tags, _stages). They are hostile input: every value
// reaches the page as text (textContent / text nodes), never as markup.
"use strict";

const state = {
  rules: {},            // service -> stage -> the order rules it obeys (rules.json)
  entries: new Map(),   // key -> entry, in arrival order
  paused: false,
  waiting: [],          // events that arrived while paused
  selected: null,
};

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("data-")) node.setAttribute(name, String(value));
    else node[name] = value;
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const text = (value) => (value === undefined || value === null ? "" : String(value));
const list = (value) => (Array.isArray(value) ? value : []);
const REDACTED = "<redacted>";

// Swift's Duration encodes as [high, low]: the attoseconds' upper and lower 64 bits.
function durationMs(value) {
  if (Array.isArray(value) && value.length === 2) return (Number(value[0]) * 18446744073709551616 + Number(value[1])) / 1e15;
  if (value && typeof value === "object" && "components" in value) return durationMs(value.components);
  if (typeof value === "number") return value;
  return NaN;
}
const ms = (value) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(1)) + " ms" : "–");

function header(fields, name) {
  const lower = name.toLowerCase();
  const found = list(fields).find((field) => text(field && field.name).toLowerCase() === lower);
  return found ? text(found.value) : null;
}

function keyOf(entry) {
  return `${text(entry._requestID)}/${text(entry._attempt)}/${text(entry.startedDateTime)}`;
}

function stagesOf(entry) { return list(entry._stages); }

function attemptsOf(entry) {
  const attempts = new Set(stagesOf(entry).map((step) => Number(step.attempt) || 1));
  return Math.max(attempts.size, 1);
}

function pathOf(entry) {
  try { const url = new URL(text(entry.request && entry.request.url)); return url.pathname + url.search; }
  catch (_) { return text(entry.request && entry.request.url); }
}

function endpointOf(entry) {
  return text(entry._endpoint) || pathOf(entry).split("?")[0];
}

// An event stream's reconnection is a call of its own that sends Last-Event-ID: number it after the
// connections before it to the same service and endpoint.
function reconnectionOf(entry) {
  if (header(entry.request && entry.request.headers, "Last-Event-ID") === null) return 0;
  let count = 0;
  for (const other of state.entries.values()) {
    if (other === entry) break;
    if (other._service !== entry._service || endpointOf(other) !== endpointOf(entry)) continue;
    count = header(other.request && other.request.headers, "Last-Event-ID") === null ? 0 : count + 1;
  }
  return count + 1;
}

// ---- the list -------------------------------------------------------------------------------

const filters = {
  service: document.getElementById("filter-service"),
  status: document.getElementById("filter-status"),
  tag: document.getElementById("filter-tag"),
  text: document.getElementById("filter-text"),
};

function matches(entry) {
  const status = Number(entry.response && entry.response.status) || 0;
  if (filters.service.value && entry._service !== filters.service.value) return false;
  if (filters.status.value !== "") {
    const wanted = filters.status.value;
    if (wanted === "0" ? status !== 0 : String(Math.floor(status / 100)) !== wanted) return false;
  }
  const tag = filters.tag.value.trim().toLowerCase();
  if (tag && !list(entry._tags).some((t) => text(t).toLowerCase().includes(tag))) return false;
  const needle = filters.text.value.trim().toLowerCase();
  if (needle) {
    const haystack = [entry._service, endpointOf(entry), entry.request && entry.request.url, entry.request && entry.request.method,
      status, entry.response && entry.response._error, ...list(entry._tags), ...stagesOf(entry).map((step) => step.stage)]
      .map(text).join(" ").toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  return true;
}

function row(entry, key) {
  const status = Number(entry.response && entry.response.status) || 0;
  const reconnection = reconnectionOf(entry);
  const method = text(entry.request && entry.request.method), name = endpointOf(entry);
  const endpoint = el("td", { class: "endpoint" }, name.startsWith(method + " ") ? name : `${method} ${name}`);
  if (reconnection > 0) endpoint.append(" ", el("span", { class: "badge reconnection" }, `reconnection ${reconnection}`));
  const tr = el("tr", { class: "call" + (status === 0 || status >= 400 ? " failed" : "") + (state.selected === key ? " selected" : ""),
      "data-key": key, "data-service": text(entry._service), "data-status": status },
    el("td", {}, text(entry.startedDateTime).replace(/^.*T/, "").replace("Z", "")),
    el("td", { class: "service" }, text(entry._service)),
    endpoint,
    el("td", { class: "status" }, status === 0 ? "failed" : status),
    el("td", { class: "duration" }, ms(Number(entry.time))),
    el("td", { class: "tags" }, ...list(entry._tags).map((tag) => el("span", { class: "tag" }, tag))),
    el("td", { class: "attempts" }, attemptsOf(entry)));
  tr.addEventListener("click", () => select(key));
  return tr;
}

function renderList() {
  const body = document.getElementById("call-rows");
  const rows = [];
  for (const [key, entry] of state.entries) if (matches(entry)) rows.push(row(entry, key));
  body.replaceChildren(...rows.reverse());
  document.getElementById("empty").hidden = state.entries.size > 0;
  const services = [...new Set([...state.entries.values()].map((entry) => text(entry._service)))].sort();
  const current = filters.service.value;
  filters.service.replaceChildren(el("option", { value: "" }, "all"), ...services.map((s) => el("option", { value: s }, s)));
  filters.service.value = services.includes(current) ? current : "";
}

// ---- one call's timeline ----------------------------------------------------------------------

function changeRows(diff, direction) {
  const rows = [];
  for (const change of list(diff && diff.changes)) {
    const before = change.before === undefined || change.before === null ? null : text(change.before);
    const after = change.after === undefined || change.after === null ? null : text(change.after);
    const kind = before === null ? "added" : after === null ? "removed" : "changed";
    const value = kind === "added" ? after : kind === "removed" ? before : `${before} → ${after}`;
    rows.push(el("tr", { class: `change ${kind}`, "data-direction": direction, "data-part": text(change.part), "data-name": text(change.name), "data-kind": kind,
        "data-redacted": change.isRedacted ? "true" : "false" },
      el("td", { class: "kind" }, kind), el("td", { class: "part" }, `${direction} ${text(change.part)}`),
      el("td", { class: "name" }, text(change.name)), el("td", { class: "value" }, value)));
  }
  const summary = (body) => (body ? `${text(body.size)} B ${text(body.mediaType) || "(no type)"}${body.isStream ? " stream" : ""} ${text(body.digest).slice(0, 19)}` : "none");
  const before = diff && diff.bodyBefore, after = diff && diff.bodyAfter;
  if ((before || after) && JSON.stringify(before) !== JSON.stringify(after)) {
    rows.push(el("tr", { class: "change body changed", "data-direction": direction, "data-part": "body", "data-name": "body", "data-kind": "changed",
        "data-before-type": text(before && before.mediaType), "data-after-type": text(after && after.mediaType) },
      el("td", { class: "kind" }, "body"), el("td", { class: "part" }, `${direction} body`), el("td", { class: "name" }, ""),
      el("td", { class: "value" }, `${summary(before)} → ${summary(after)}`)));
  }
  return rows;
}

function shellQuote(value) { return "'" + text(value).replace(/'/g, "'\\''") + "'"; }

// The request as the transport sent it, as a cURL command (values already redacted).
function curlOf(entry, transport) {
  const sent = transport && transport.sent;
  let method = text(entry.request && entry.request.method), url = text(entry.request && entry.request.url);
  let fields = list(entry.request && entry.request.headers).map((h) => [h.name, h.value]);
  let body = entry.request && entry.request.postData ? entry.request.postData.text : null;
  if (sent) {
    const parts = text(sent.line).split(" ");
    if (parts.length >= 2) { method = parts[0]; url = parts[1].startsWith("/") ? new URL(parts[1], url).toString() : parts[1]; }
    fields = list(sent.headerFields).map((pair) => [list(pair)[0], list(pair)[1]]);
    body = sent.bodyText !== undefined ? sent.bodyText : null;
  }
  const words = ["curl", "-X", method, shellQuote(url)];
  for (const [name, value] of fields) words.push("-H", shellQuote(`${text(name)}: ${text(value)}`));
  if (body !== null && body !== undefined) words.push("--data-binary", shellQuote(body));
  return words.join(" ");
}

function redactedNames(entry) {
  const names = new Set();
  const look = (name, value) => { if (text(value).includes(REDACTED)) names.add(text(name)); };
  for (const h of list(entry.request && entry.request.headers)) look(`header ${h.name}`, h.value);
  for (const q of list(entry.request && entry.request.queryString)) look(`query ${q.name}`, q.value);
  for (const c of list(entry.request && entry.request.cookies)) look(`cookie ${c.name}`, c.value);
  for (const h of list(entry.response && entry.response.headers)) look(`response header ${h.name}`, h.value);
  if (text(entry.request && entry.request.url).includes(REDACTED) || text(entry.request && entry.request.url).includes("%3Credacted%3E")) names.add("URL path or query");
  for (const step of stagesOf(entry)) {
    for (const diff of [step.request, step.response]) {
      for (const change of list(diff && diff.changes)) {
        if (change.isRedacted) names.add(`${text(change.part)} ${text(change.name)}`);
        look(`${text(change.part)} ${text(change.name)}`, change.before);
        look(`${text(change.part)} ${text(change.name)}`, change.after);
      }
    }
    for (const message of [step.sent, step.received]) {
      for (const pair of list(message && message.headerFields)) look(`header ${list(pair)[0]}`, list(pair)[1]);
    }
  }
  return [...names].sort();
}

function stageBox(step, service) {
  const outcome = text(step.outcome) || "passed";
  const box = el("div", { class: "stage", "data-stage": text(step.stage), "data-outcome": outcome },
    el("div", { class: "stage-head" },
      el("span", { class: "stage-name" }, text(step.stage)),
      el("span", { class: `outcome ${outcome}` }, outcome),
      el("span", { class: "stage-time" }, ms(durationMs(step.duration))),
      Number(step.handOvers) > 1 ? el("span", { class: "handovers" }, `passed the call on ${Number(step.handOvers)} times`) : null));
  if (step.error) box.append(el("div", { class: "error" }, text(step.error)));
  const rules = list((state.rules[service] || {})[text(step.stage)]);
  if (rules.length) box.append(el("div", { class: "rules" }, "obeys: " + rules.map(text).join("; ")));
  const rows = [...changeRows(step.request, "request"), ...changeRows(step.response, "response")];
  if (rows.length) box.append(el("table", { class: "changes" }, el("tbody", {}, ...rows)));
  else box.append(el("div", { class: "note" }, "no change"));
  if (step.received) {
    const received = [text(step.received.line), ...list(step.received.headerFields).map((pair) => `${text(list(pair)[0])}: ${text(list(pair)[1])}`)];
    box.append(el("div", { class: "note" }, "received"), el("pre", { class: "received" }, received.join("\n")));
    if (step.received.bodyText !== undefined && step.received.bodyText !== null) box.append(el("pre", { class: "received-body" }, text(step.received.bodyText)));
  }
  return box;
}

function renderDetail(key) {
  const pane = document.getElementById("detail");
  const entry = state.entries.get(key);
  if (!entry) { pane.hidden = true; pane.replaceChildren(); return; }
  pane.hidden = false;
  const status = Number(entry.response && entry.response.status) || 0;
  const reconnection = reconnectionOf(entry);
  const parts = [
    el("h2", { id: "detail-title" }, `${text(entry.request && entry.request.method)} ${text(entry.request && entry.request.url)}`),
    el("div", { class: "summary" }, `${text(entry._service)} · ${endpointOf(entry)} · status ${status === 0 ? "failed" : status} · ${ms(Number(entry.time))} · request ${text(entry._requestID)}`),
  ];
  if (reconnection > 0) parts.push(el("div", { class: "badge reconnection", id: "detail-reconnection" }, `reconnection ${reconnection} of this event stream (sent Last-Event-ID)`));
  if (entry.response && entry.response._error) parts.push(el("div", { class: "error" }, text(entry.response._error)));

  const steps = stagesOf(entry);
  parts.push(el("h3", {}, "Stages"));
  if (!steps.length) parts.push(el("p", { class: "note" }, "No trace for this call: turn its service's trace on (ServiceDefaults(trace: .diffs))."));
  const byAttempt = new Map();
  for (const step of steps) {
    const attempt = Number(step.attempt) || 1;
    if (!byAttempt.has(attempt)) byAttempt.set(attempt, []);
    byAttempt.get(attempt).push(step);
  }
  let transport = null;
  for (const [attempt, group] of [...byAttempt].sort((a, b) => a[0] - b[0])) {
    parts.push(el("section", { class: "attempt", "data-attempt": attempt }, el("h3", {}, `Attempt ${attempt}`), ...group.map((step) => stageBox(step, entry._service))));
    transport = group.find((step) => step.stage === "transport") || transport;
  }
  parts.push(el("h3", {}, "Request as sent (cURL)"), el("pre", { class: "curl", id: "curl" }, curlOf(entry, transport)));
  const response = entry.response || {};
  const answer = [`${text(response.status)} ${text(response.statusText)}`, ...list(response.headers).map((h) => `${text(h.name)}: ${text(h.value)}`)];
  parts.push(el("h3", {}, "Response"), el("pre", { class: "response" }, answer.join("\n")));
  const content = response.content || {};
  parts.push(el("div", { class: "note" }, `${text(content.size)} B ${text(content.mimeType)}`));
  if (content.text !== undefined && content.text !== null) parts.push(el("pre", { class: "response-body" }, text(content.text)));
  const names = redactedNames(entry);
  parts.push(el("h3", {}, "Redactions applied"),
    names.length ? el("ul", { class: "redactions" }, ...names.map((name) => el("li", {}, name))) : el("p", { class: "note" }, "none"));
  pane.replaceChildren(...parts);
}

function select(key) {
  state.selected = key;
  for (const tr of document.querySelectorAll("tr.call")) tr.classList.toggle("selected", tr.dataset.key === key);
  renderDetail(key);
}

// ---- live updates ---------------------------------------------------------------------------

function apply(event) {
  if (event.type === "clear") {
    state.entries.clear();
    state.selected = null;
    renderDetail(null);
    return;
  }
  let entry;
  try { entry = JSON.parse(event.data); } catch (_) { return; }
  if (!entry || typeof entry !== "object") return;
  const key = event.lastEventId || keyOf(entry);
  if (!state.entries.has(key)) state.entries.set(key, entry);
}

function receive(event) {
  if (state.paused) { state.waiting.push(event); updatePause(); return; }
  apply(event);
  renderList();
}

function updatePause() {
  const button = document.getElementById("pause");
  button.textContent = state.paused ? `Resume (${state.waiting.length} waiting)` : "Pause";
  button.classList.toggle("on", state.paused);
}

document.getElementById("pause").addEventListener("click", () => {
  state.paused = !state.paused;
  if (!state.paused) { for (const event of state.waiting.splice(0)) apply(event); renderList(); }
  updatePause();
});

document.getElementById("clear").addEventListener("click", () => {
  fetch("clear", { method: "POST" }).catch(() => {});
  state.entries.clear();
  state.waiting = [];
  state.selected = null;
  renderDetail(null);
  renderList();
  updatePause();
});

for (const input of Object.values(filters)) input.addEventListener("input", renderList);
document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());

fetch("rules.json").then((answer) => answer.json()).then((rules) => {
  state.rules = rules && typeof rules === "object" ? rules : {};
  if (state.selected) renderDetail(state.selected);
}).catch(() => {});

const stream = new EventSource("events");
const connection = document.getElementById("connection");
stream.addEventListener("open", () => { connection.textContent = "live"; connection.classList.add("live"); });
stream.addEventListener("error", () => { connection.textContent = "reconnecting…"; connection.classList.remove("live"); });
stream.addEventListener("entry", receive);
stream.addEventListener("clear", receive);
renderList();
