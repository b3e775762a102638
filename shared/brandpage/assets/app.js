// brandlens brand check: the form, the reCAPTCHA (or the local bypass the
// server announces in #bl-config) and the result view. No build step, no
// framework; everything the API returns is written with textContent, never
// as HTML, because AI answers are untrusted text.
"use strict";

(function () {
  const cfg = JSON.parse(document.getElementById("bl-config").textContent);
  const $ = (id) => document.getElementById(id);
  const form = $("check-form");
  const fields = { brandName: $("brand"), websiteUrl: $("website") };
  const names = {
    chatgpt: "ChatGPT", perplexity: "Perplexity", gemini: "Gemini", claude: "Claude",
    google_ai_overview: "Google AI Overviews",
  };
  const statusText = {
    succeeded: "answered", partial: "answered some questions", failed: "failed", timeout: "timed out",
  };
  let widget = null; // v2 widget id

  // --- reCAPTCHA -----------------------------------------------------------
  function loadRecaptcha() {
    if (cfg.bypass) {
      $("bypass-note").hidden = false;
      $("recaptcha-terms").hidden = true;
      return;
    }
    const s = document.createElement("script");
    if (cfg.recaptcha.version === "v2") {
      window.blRecaptchaLoaded = () => {
        widget = window.grecaptcha.render("recaptcha", { sitekey: cfg.recaptcha.siteKey });
      };
      s.src = "https://www.google.com/recaptcha/api.js?onload=blRecaptchaLoaded&render=explicit";
    } else {
      s.src = "https://www.google.com/recaptcha/api.js?render=" + encodeURIComponent(cfg.recaptcha.siteKey);
    }
    s.async = true;
    s.onerror = () => showError("The human check could not be loaded. Check your connection and reload the page.");
    document.head.appendChild(s);
  }

  function token() {
    if (cfg.bypass) return Promise.resolve(cfg.bypassToken);
    const g = window.grecaptcha;
    if (!g) return Promise.reject(new Error("recaptcha-missing"));
    if (cfg.recaptcha.version === "v2") {
      const t = g.getResponse(widget);
      return t ? Promise.resolve(t) : Promise.reject(new Error("recaptcha-unticked"));
    }
    return new Promise((resolve, reject) => {
      g.ready(() => g.execute(cfg.recaptcha.siteKey, { action: cfg.recaptcha.action }).then(resolve, reject));
    });
  }

  function resetRecaptcha() {
    if (!cfg.bypass && cfg.recaptcha.version === "v2" && window.grecaptcha && widget !== null) {
      window.grecaptcha.reset(widget);
    }
  }

  // --- messages ------------------------------------------------------------
  function clearErrors() {
    $("error").hidden = true;
    $("error").textContent = "";
    for (const [member, input] of Object.entries(fields)) {
      input.removeAttribute("aria-invalid");
      fieldError(member, "");
    }
    fieldError("recaptchaToken", "");
  }

  function fieldError(member, msg) {
    const el = { brandName: $("brand-error"), websiteUrl: $("website-error"), recaptchaToken: $("recaptcha-error") }[member];
    if (!el) return false;
    el.textContent = msg;
    el.hidden = !msg;
    if (fields[member]) {
      if (msg) fields[member].setAttribute("aria-invalid", "true");
      else fields[member].removeAttribute("aria-invalid");
    }
    return true;
  }

  function showError(msg) {
    $("error").textContent = msg;
    $("error").hidden = false;
  }

  // "5 h 12 min", "12 min", "40 s"
  function wait(seconds) {
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60);
    if (h > 0) return h + " h " + m + " min";
    if (m > 0) return m + " min";
    return Math.max(seconds, 1) + " s";
  }

  const labels = { brandName: "Brand name", websiteUrl: "Website", recaptchaToken: "Human check" };

  function explain(status, body, retryAfter) {
    const err = (body && body.error) || {};
    switch (status) {
      case 422: {
        const list = (err.details && err.details.fields) || [];
        let first = null;
        for (const f of list) {
          if (fieldError(f.field, (labels[f.field] || f.field) + " " + f.message + ".") && !first) first = fields[f.field];
        }
        if (first) first.focus();
        if (!list.length) showError(err.message || "Please check the form.");
        else showError("Please correct the highlighted fields.");
        return;
      }
      case 403:
        resetRecaptcha();
        showError("We could not confirm that you are human. Please complete the check again and resubmit.");
        return;
      case 429:
        // The daily limit says so in details.dailyLimit; any other 429 (the
        // distribution's WAF rate rule) is a short wait, not the day's end.
        if (err.details && err.details.dailyLimit) {
          showError("You have used your free checks for today. Your next free check is available in " +
            wait(retryAfter || 0) + " (at midnight UTC).");
        } else {
          showError("Too many requests from your network just now. Please try again in " + wait(retryAfter || 60) + ".");
        }
        return;
      case 503:
        showError((err.message || "The check is unavailable just now.") +
          (retryAfter ? " Please try again in " + wait(retryAfter) + "." : ""));
        return;
    }
    showError("Something went wrong on our side (" + status + "). Please try again in a moment." +
      (err.message ? " " + err.message : ""));
  }

  // --- progress --------------------------------------------------------------
  let timer = null;
  function progress(on) {
    $("progress").hidden = !on;
    $("submit").disabled = on;
    form.setAttribute("aria-busy", on ? "true" : "false");
    clearInterval(timer);
    if (!on) return;
    const started = Date.now(), budget = cfg.budgetSeconds || 20;
    const plats = cfg.platforms.map((p) => names[p] || p).join(", ");
    $("progress-text").textContent = "Asking " + plats + "… this takes up to " + budget + " seconds.";
    const bar = $("progress-bar");
    bar.value = 0;
    timer = setInterval(() => {
      const s = (Date.now() - started) / 1000;
      bar.value = Math.min(95, (s / budget) * 100);
      bar.setAttribute("aria-valuetext", Math.round(s) + " seconds elapsed");
    }, 500);
  }

  // --- result ----------------------------------------------------------------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function safeLink(url) {
    try {
      const u = new URL(url);
      if (u.protocol !== "https:" && u.protocol !== "http:") return null;
      const a = el("a", "", url);
      a.href = u.href;
      a.rel = "nofollow noopener noreferrer";
      a.target = "_blank";
      return a;
    } catch (_) {
      return null;
    }
  }

  function render(r) {
    $("result-title").textContent = "Results for " + r.brandName;
    const score = Math.max(0, Math.min(100, r.visibilityScore | 0));
    $("gauge-value").setAttribute("stroke-dasharray", score + " 100");
    $("gauge-number").textContent = String(score);
    $("gauge-label").textContent = "Visibility score " + score + " out of 100";
    const grade = $("grade");
    grade.textContent = r.grade || "–";
    grade.className = "grade" + (r.grade ? " grade-" + r.grade : "");
    grade.setAttribute("aria-label", r.grade ? "Grade " + r.grade : "No grade: no platform answered");
    $("summary").textContent = r.summary;

    const list = $("platforms");
    list.replaceChildren();
    for (const p of r.platforms) {
      const answered = p.status === "succeeded" || p.status === "partial";
      const li = el("li", "platform" + (answered ? "" : " down"));
      li.dataset.platform = p.platform;
      const head = el("div", "platform-head");
      const name = names[p.platform] || p.platform;
      head.append(el("span", "platform-name", name));
      const meta = answered
        ? (p.visibilityScore | 0) + "/100 · " + p.mentionCount + (p.mentionCount === 1 ? " mention" : " mentions") +
          (p.status === "partial" ? " · some questions failed" : "")
        : statusText[p.status] || p.status;
      head.append(el("span", "platform-meta", meta));
      li.append(head);
      const bar = el("div", "bar");
      bar.setAttribute("role", "img");
      bar.setAttribute("aria-label", name + ": " + (answered ? (p.visibilityScore | 0) + " out of 100" : statusText[p.status] || p.status));
      const fill = el("div", "bar-fill");
      fill.style.width = (answered ? Math.max(0, Math.min(100, p.visibilityScore | 0)) : 0) + "%";
      bar.append(fill);
      li.append(bar);
      if (p.evidenceSnippet) li.append(el("p", "evidence", "“" + p.evidenceSnippet + "”"));
      if (p.errorMessage) li.append(el("p", "platform-meta", p.errorMessage));
      list.append(li);
    }

    const comps = $("competitors");
    comps.replaceChildren();
    const pages = new Map((r.topCompetitorCitedPages || []).map((c) => [c.name, c.citedUrl]));
    for (const name of r.topCompetitors || []) {
      const li = el("li");
      li.append(el("strong", "", name));
      const link = pages.has(name) ? safeLink(pages.get(name)) : null;
      li.append(link || el("span", "platform-meta", "no page cited"));
      comps.append(li);
    }
    $("competitors-block").hidden = !(r.topCompetitors || []).length;
    $("cta").href = cfg.ctaUrl;
    $("cta").parentElement.hidden = !r.hasUpsell;
    $("request-id").textContent = "Check " + r.requestId + " · " + new Date(r.completedAt).toUTCString();
    const section = $("result");
    section.hidden = false;
    section.focus();
  }

  // --- submit ----------------------------------------------------------------
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors();
    $("result").hidden = true;
    const brand = fields.brandName.value.trim();
    let site = fields.websiteUrl.value.trim();
    if (site && !/^[a-z][a-z0-9+.-]*:/i.test(site)) site = "https://" + site; // "acme.com" means https://acme.com
    let bad = false;
    if (!brand) bad = fieldError("brandName", "Brand name is required.");
    if (!site) bad = fieldError("websiteUrl", "Website is required.") || bad;
    if (bad) {
      (brand ? fields.websiteUrl : fields.brandName).focus();
      return;
    }
    progress(true);
    try {
      let t;
      try {
        t = await token();
      } catch (e) {
        fieldError("recaptchaToken", e.message === "recaptcha-unticked"
          ? "Please tick “I’m not a robot” first." : "The human check is not ready yet; please try again.");
        return;
      }
      const res = await fetch(cfg.apiPath, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ brandName: brand, websiteUrl: site, recaptchaToken: t }),
      });
      let body = null;
      try { body = await res.json(); } catch (_) { /* not JSON: handled below */ }
      if (res.ok && body) {
        render(body);
      } else {
        explain(res.status, body, parseInt(res.headers.get("Retry-After") || "0", 10));
      }
    } catch (e) {
      showError("We could not reach the server. Check your connection and try again.");
    } finally {
      progress(false);
      resetRecaptcha();
    }
  });

  loadRecaptcha();
})();
