// "Your music" on the library screen: drop or choose files (several at
// once), each with its own progress; then your uploads, each shared with
// the whole server or kept to yourself, and deleted with a second press.
// Names from files and tags go in as text.

import { h, fill, setText } from "../ui/dom.js";
import { toast } from "../ui/toast.js";
import { uploadsAPI, uploadFile, sizeText } from "../api/uploads.js";

const ACCEPT = "audio/*,.mp3,.m4a,.aac,.flac,.ogg,.oga,.opus,.wav,.aif,.aiff,.wma,.alac,.ape,.wv";

export function createUploadsPanel() {
  let alive = true;
  let usage = null;
  const meterFill = h("span", { class: "uploads-meter-fill" });
  const meter = h("div", { class: "uploads-meter", role: "img", "aria-label": "Loading your space" }, meterFill);
  const meterText = h("p", { class: "uploads-meter-text hint" }, "…");
  const input = h("input", {
    type: "file",
    multiple: true,
    accept: ACCEPT,
    id: "upload-files",
    class: "visually-hidden uploads-input",
    onchange: () => {
      enqueue([...input.files]);
      input.value = "";
    },
  });
  const zone = h(
    "label",
    { class: "uploads-drop", for: "upload-files" },
    h("span", { class: "uploads-drop-dial", "aria-hidden": "true" }),
    h("span", { class: "uploads-drop-title" }, "Drop music here"),
    h("span", { class: "uploads-drop-hint" }, "or choose files: MP3, FLAC, M4A, Ogg, WAV and more, several at once"),
  );
  const queue = h("ul", { class: "uploads-queue", "aria-label": "Files being uploaded" });
  const list = h("ul", { class: "uploads-list", "aria-labelledby": "uploads-list-heading" });
  const empty = h("p", { class: "hint uploads-empty" }, "Nothing uploaded yet. What you upload is yours: in your search and your station's robot DJ, and everyone's once you share it.");

  for (const type of ["dragenter", "dragover"]) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add("is-over");
    });
  }
  zone.addEventListener("dragleave", () => zone.classList.remove("is-over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("is-over");
    enqueue([...(event.dataTransfer ? event.dataTransfer.files : [])]);
  });

  // One file at a time, in the order given: the server reads each whole.
  const waiting = [];
  let sending = false;
  function enqueue(files) {
    for (const file of files) {
      const bar = h("progress", { max: Math.max(1, file.size), value: 0, "aria-label": `Uploading ${file.name}` });
      const status = h("span", { class: "uploads-status", role: "status" }, "Waiting");
      const row = h("li", { class: "uploads-row is-waiting" }, h("span", { class: "uploads-name" }, file.name), bar, status);
      queue.append(row);
      waiting.push({ file, bar, status, row });
    }
    if (!sending) next();
  }

  async function next() {
    const item = waiting.shift();
    if (!item || !alive) {
      sending = false;
      return;
    }
    sending = true;
    const { file, bar, status, row } = item;
    row.className = "uploads-row is-sending";
    setText(status, "Sending");
    try {
      const { status: code, receipt } = await uploadFile(file, (sent, total) => {
        bar.max = total;
        bar.value = sent;
        setText(status, sent >= total ? "Reading the music…" : `${Math.round((sent / total) * 100)} %`);
      }).done;
      bar.value = bar.max;
      row.className = "uploads-row is-done";
      if (code === 201 && receipt.upload) {
        const track = receipt.upload.track;
        setText(status, `In your music: ${track.title || file.name}`);
      } else if (receipt.duplicate) {
        const track = receipt.duplicate;
        setText(status, `Already on the server as “${track.title}” by ${track.artist}: not stored twice`);
      }
      load();
    } catch (error) {
      row.className = "uploads-row is-failed";
      setText(status, error.message || "That upload failed.");
    }
    next();
  }

  function drawUsage(data) {
    usage = data;
    const share = data.quotaBytes > 0 ? Math.min(1, data.usedBytes / data.quotaBytes) : 1;
    meterFill.style.width = `${(share * 100).toFixed(1)}%`;
    const text = `${sizeText(data.usedBytes)} of your ${sizeText(data.quotaBytes)} used · one file up to ${sizeText(data.maxFileBytes)}`;
    meter.setAttribute("aria-label", text);
    setText(meterText, text);
  }

  function row(upload) {
    const track = upload.track;
    const shareBox = h("input", {
      type: "checkbox",
      class: "uploads-share",
      checked: upload.shared,
      onchange: async () => {
        shareBox.disabled = true;
        try {
          await (shareBox.checked ? uploadsAPI.share(upload.track.id) : uploadsAPI.unshare(upload.track.id));
          toast(shareBox.checked ? `“${track.title}” is everyone's now.` : `“${track.title}” is yours alone again.`);
        } catch (error) {
          shareBox.checked = !shareBox.checked;
          toast(error.message || "That didn't work: try again.", { kind: "error" });
        } finally {
          shareBox.disabled = false;
        }
      },
    });
    let armed = false;
    const remove = h(
      "button",
      {
        type: "button",
        class: "btn btn-secondary btn-small uploads-delete",
        "aria-label": `Delete ${track.title}`,
        onclick: async () => {
          if (!armed) {
            armed = true;
            setText(remove, "Press again to delete");
            return;
          }
          remove.disabled = true;
          try {
            await uploadsAPI.remove(upload.track.id);
            toast(`Deleted “${track.title}”.`);
            load();
          } catch (error) {
            remove.disabled = false;
            toast(error.message || "That didn't work: try again.", { kind: "error" });
          }
        },
      },
      "Delete",
    );
    return h(
      "li",
      { class: "uploads-item", dataset: { trackId: upload.track.id } },
      h(
        "span",
        { class: "uploads-item-text" },
        h("span", { class: "uploads-item-title" }, track.title || upload.name),
        h("span", { class: "uploads-item-meta" }, `${track.artist || "Unknown Artist"} · ${sizeText(upload.bytes)} · ${upload.name}`),
      ),
      h("label", { class: "uploads-share-label" }, shareBox, h("span", {}, "Share with everyone")),
      remove,
    );
  }

  function load() {
    uploadsAPI
      .mine()
      .then((data) => {
        if (!alive) return;
        drawUsage(data);
        empty.hidden = data.uploads.length > 0;
        fill(list, data.uploads.map(row));
      })
      .catch((error) => alive && setText(meterText, error.message || "Couldn't load your music."));
  }
  load();

  const el = h(
    "section",
    { class: "card uploads-card", "aria-labelledby": "uploads-heading" },
    h("h2", { class: "section-title", id: "uploads-heading" }, "Your music"),
    meter,
    meterText,
    input,
    zone,
    queue,
    h("h3", { class: "uploads-list-heading", id: "uploads-list-heading" }, "Uploaded"),
    empty,
    list,
  );
  return {
    el,
    usage: () => usage,
    destroy: () => {
      alive = false;
    },
  };
}
