/*
 * The SCORM 1.2 runtime of an exported course. It finds the LMS's `API` object in a parent frame
 * (or the opener's), starts the session, shows one page at a time, scores the quiz and reports
 * cmi.core.lesson_status and cmi.core.score.* before finishing. Without an LMS the course still
 * works: nothing is reported.
 */
(() => {
  const findApi = (start) => {
    let win = start;
    for (let hops = 0; win && hops < 10; hops++) {
      if (win.API) return win.API;
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  };
  var api = findApi(window) || (window.opener ? findApi(window.opener) : null);
  var finished = false;

  const call = (name, ...args) => {
    if (!api) return "";
    try {
      return String(api[name](...args));
    } catch (_e) {
      return "";
    }
  };

  var data = JSON.parse(document.getElementById("course-data").textContent);
  var mastery = data.masteryScore;

  if (call("LMSInitialize", "") === "true") {
    const status = call("LMSGetValue", "cmi.core.lesson_status");
    if (status === "not attempted" || status === "") call("LMSSetValue", "cmi.core.lesson_status", "incomplete");
  }

  // One page (chapter, study guide, quiz) visible at a time.
  var pages = Array.prototype.slice.call(document.querySelectorAll("section.page"));
  var links = Array.prototype.slice.call(document.querySelectorAll("nav a[data-page]"));
  function show(id) {
    pages.forEach((p) => {
      p.hidden = p.id !== id;
    });
    links.forEach((a) => {
      a.setAttribute("aria-current", a.getAttribute("data-page") === id ? "page" : "false");
    });
    call("LMSSetValue", "cmi.core.lesson_location", id);
    window.scrollTo(0, 0);
  }
  links.forEach((a) => {
    a.addEventListener("click", (event) => {
      event.preventDefault();
      show(a.getAttribute("data-page"));
    });
  });
  var resume = call("LMSGetValue", "cmi.core.lesson_location");
  show(resume && document.getElementById(resume) ? resume : pages[0].id);

  // The quiz is built from data with textContent only: question text is never parsed as HTML.
  var form = document.getElementById("quiz-form");
  data.questions.forEach((q, i) => {
    var fieldset = document.createElement("fieldset");
    fieldset.className = "question";
    var legend = document.createElement("legend");
    legend.textContent = `${i + 1}. ${q.prompt}`;
    fieldset.appendChild(legend);
    q.choices.forEach((choice, j) => {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "radio";
      input.name = `q${i}`;
      input.value = String(j);
      label.appendChild(input);
      label.appendChild(document.createTextNode(` ${choice}`));
      fieldset.appendChild(label);
    });
    var feedback = document.createElement("p");
    feedback.className = "feedback";
    feedback.hidden = true;
    fieldset.appendChild(feedback);
    form.insertBefore(fieldset, form.lastElementChild);
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    var correct = 0;
    data.questions.forEach((q, i) => {
      var picked = form.querySelector(`input[name="q${i}"]:checked`);
      var right = picked !== null && Number(picked.value) === q.answer;
      if (right) correct++;
      var feedback = form.querySelectorAll(".feedback")[i];
      feedback.hidden = false;
      feedback.textContent = (right ? "Correct. " : `Not quite: ${q.choices[q.answer]}. `) + q.explanation;
    });
    var score = data.questions.length ? Math.round((100 * correct) / data.questions.length) : 100;
    document.getElementById("quiz-result").textContent = `Score: ${score}% (${correct} of ${data.questions.length})`;
    call("LMSSetValue", "cmi.core.score.min", "0");
    call("LMSSetValue", "cmi.core.score.max", "100");
    call("LMSSetValue", "cmi.core.score.raw", String(score));
    call("LMSSetValue", "cmi.core.lesson_status", score >= mastery ? "passed" : "failed");
    call("LMSCommit", "");
  });

  function finish() {
    if (finished) return;
    finished = true;
    call("LMSCommit", "");
    call("LMSFinish", "");
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);
  document.getElementById("finish").addEventListener("click", finish);
})();
