// Package content turns a content opportunity into a brief and the brief
// into a publish-ready article, through one chat model (models.Generator):
//
//   - The brief (GenerateBrief) is planned from the opportunity's gap — the
//     query, the tier, the competitors that out-rank the brand, the pages
//     the AI platforms cite instead of the brand's, the sentences the
//     answers say about the brand — by the model, which writes the title,
//     the outline (H2/H3), the questions and the facts; the target queries,
//     target entities and competitor pages come from the recorded evidence.
//   - The article (GenerateArticle) is written by the model from the brief
//     and a persona as JSON {title, metaDescription, bodyHtml}. The body is
//     then rewritten (h1 becomes h2; the text is humanized by
//     HumanizeRules), sanitized with bluemonday (Sanitize: no document
//     elements, scripts, styles, event handlers or javascript: URLs), and
//     checked: every heading of the outline and every target entity must
//     appear, and a faq must carry question headings. The headings are read
//     from the sanitized body with golang.org/x/net/html; the slug comes
//     from gosimple/slug; the meta description is cut to 160 characters;
//     schemaJsonLd is built here (Article, or FAQPage for faq, with
//     @context https://schema.org), not by the model.
//
// The prompts are built by BriefMessages and ArticleMessages, exported so
// they can be audited verbatim; every model call is written to the audit
// log with its prompt, response, tokens and cost. Offline is the
// deterministic generator of `make run` and tests: it reads the prompt's
// input block and writes a real article from the brief and the evidence.
package content
