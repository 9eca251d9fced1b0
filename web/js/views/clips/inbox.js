// The booth's clip inbox (the owner and co-DJs): listeners' shout-outs
// waiting for the host (name, note, length, ▶ preview, Approve: it plays
// next, Delete), the clips played or approved already (Delete; one still on
// the timeline can't go yet, and the server says so), and how much of the
// station's clip space they hold. Live: a shout-out shows the moment it
// arrives (the socket's clipWaiting). The words are clips-model.js's;
// names and notes only ever go in as text.

import { h, fill, icon, setText } from "../../ui/dom.js";

/**
 * @param {{onApprove: (id: string) => Promise, onDelete: (id: string) => Promise}} actions
 */
export function createClipInbox({ onApprove, onDelete }) {
  const count = h("span", { class: "count-pill clip-inbox-count" });
  const quota = h("p", { class: "clip-quota" });
  const pendingList = h("ul", { class: "clip-list clip-pending", "aria-label": "Shout-outs waiting for you" });
  const empty = h("p", { class: "empty clip-inbox-empty" }, "Looking for shout-outs…");
  const status = h("p", { class: "clip-inbox-status", role: "status", "aria-live": "polite" });
  const approvedList = h("ul", { class: "clip-list clip-approved", "aria-label": "Clips approved or played" });
  const approvedCount = h("span", { class: "clip-approved-count" });
  const approved = h(
    "details",
    { class: "clip-approved-box", hidden: true },
    h("summary", { class: "clip-approved-summary" }, "Played and approved clips ", approvedCount),
    approvedList,
  );
  const el = h(
    "section",
    { class: "panel clip-inbox", "aria-labelledby": "clip-inbox-heading", hidden: true },
    h("h2", { id: "clip-inbox-heading", class: "section-title" }, icon("mic", { size: 18 }), "Voice clips ", count),
    status,
    pendingList,
    empty,
    approved,
    quota,
  );

  // One preview at a time, for the row whose ▶ is pressed.
  const player = new Audio();
  player.preload = "none";
  let playing = null;
  let signature = "";

  function setPlaying(id) {
    playing = id;
    el.dataset.previewing = id || "";
    for (const button of el.querySelectorAll(".clip-row-preview")) {
      const on = button.dataset.clipId === id && !player.paused;
      button.setAttribute("aria-pressed", String(on));
      button.replaceChildren(icon(on ? "stop" : "play", { size: 20 }));
    }
  }
  player.addEventListener("playing", () => setPlaying(playing));
  player.addEventListener("pause", () => setPlaying(playing));
  player.addEventListener("ended", () => setPlaying(null));
  player.addEventListener("error", () => {
    if (playing) say("That clip won't play here.");
    setPlaying(null);
  });

  async function preview(row) {
    if (playing === row.id && !player.paused) {
      player.pause();
      return;
    }
    playing = row.id;
    player.src = row.audioURL;
    try {
      await player.play();
    } catch (error) {
      if (error && error.name === "AbortError") return;
      say("That clip won't play here.");
      setPlaying(null);
    }
  }

  function say(text) {
    setText(status, text);
  }

  async function act(button, work, done) {
    const row = button.closest(".clip-row");
    for (const b of row.querySelectorAll("button")) b.disabled = true;
    try {
      await work();
      say(done);
    } catch (error) {
      for (const b of row.querySelectorAll("button")) b.disabled = false;
      say((error && error.message) || "That didn't work. Try again.");
    }
  }

  function clipRow(row, pending) {
    const text = h(
      "span",
      { class: "clip-row-text" },
      h("span", { class: "clip-row-name" }, row.name),
      row.note ? h("span", { class: "clip-row-note" }, row.note) : null,
      h("span", { class: "clip-row-length" }, row.length),
    );
    const previewButton = h(
      "button",
      {
        class: "btn-icon clip-row-preview", type: "button", "aria-pressed": "false", "aria-label": `Preview ${row.label}`,
        dataset: { clipId: row.id, focusKey: `preview:${row.id}` }, onclick: () => preview(row),
      },
      icon("play", { size: 20 }),
    );
    const approveButton = pending
      ? h(
          "button",
          {
            class: "btn btn-small btn-primary clip-row-approve", type: "button", "aria-label": `Approve ${row.label}: it plays next`,
            dataset: { focusKey: `approve:${row.id}` },
            onclick: (e) => act(e.currentTarget, () => onApprove(row.id), `Approved: ${row.name}'s clip plays next.`),
          },
          icon("check", { size: 18 }),
          "Approve",
        )
      : null;
    const deleteButton = h(
      "button",
      {
        class: "btn-icon btn-danger clip-row-delete", type: "button", "aria-label": `Delete ${row.label}`,
        dataset: { focusKey: `delete:${row.id}` },
        onclick: (e) => act(e.currentTarget, () => onDelete(row.id), `Deleted ${row.name}'s clip.`),
      },
      icon("close", { size: 20 }),
    );
    return h(
      "li",
      { class: `clip-row${pending ? " is-pending" : " is-approved"}`, dataset: { clipId: row.id } },
      previewButton,
      text,
      h("span", { class: "clip-row-actions" }, approveButton, deleteButton),
    );
  }

  /** Shows the inbox's model (clips-model.js inboxModel). */
  function render(model) {
    const next = JSON.stringify([model.pending, model.approved]);
    if (next !== signature) {
      signature = next;
      const active = document.activeElement;
      const focusKey = active && el.contains(active) ? active.dataset.focusKey : null;
      fill(pendingList, model.pending.map((row) => clipRow(row, true)));
      fill(approvedList, model.approved.map((row) => clipRow(row, false)));
      if (focusKey) {
        const again = el.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
        if (again && !again.disabled) again.focus();
        else {
          const fallback = el.querySelector(".clip-row button:not([disabled])") || el.querySelector(".clip-approved-summary");
          if (fallback) fallback.focus();
        }
      }
      if (playing && !model.pending.concat(model.approved).some((r) => r.id === playing)) {
        player.pause();
        playing = null;
      }
      setPlaying(playing);
    }
    setText(count, model.waiting ? String(model.waiting) : "");
    count.setAttribute("aria-label", model.waiting === 1 ? "1 waiting" : `${model.waiting} waiting`);
    setText(empty, model.empty);
    empty.hidden = model.pending.length > 0;
    approved.hidden = model.approved.length === 0;
    setText(approvedCount, model.approved.length ? `(${model.approved.length})` : "");
    setText(quota, model.quota ? `Clip space: ${model.quota}${model.full ? ". Full: delete some to make room." : ""}` : "");
    quota.hidden = !model.quota;
    quota.classList.toggle("is-full", model.full);
  }

  /** Hidden (the booth closed): previews stop. */
  function hide() {
    el.hidden = true;
    player.pause();
  }

  function show() {
    el.hidden = false;
  }

  function destroy() {
    player.pause();
    player.removeAttribute("src");
  }

  return { el, render, say, show, hide, destroy };
}
