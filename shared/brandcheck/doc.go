// Package brandcheck runs the anonymous brand check, the product's free
// funnel: a visitor names a brand and its website, proves to be human, and
// gets a 0–100 visibility score with a grade, per-platform results, the
// competitors the platforms name instead and the pages cited for them.
//
// It knows nothing of HTTP: Check takes the request members and the
// caller's address (ProxyTrust.ClientAddress derives it from the TCP peer
// and the CloudFront headers) and returns a Response or a typed error per
// HTTP outcome — *validation.Error 422, *VerificationError 403,
// *RateLimitError 429 and *UnavailableError 503, the last two with
// RetryAfterSeconds — so the route handler is a thin mapping.
//
// # Order of work
//
//  1. Validate every member (422 naming each bad one).
//  2. Verify the reCAPTCHA token (403; Google unreachable → 503, never a
//     free pass).
//  3. Look up today's cached result of the same brand and host.
//  4. Count the check in one store transaction: the client's counter of the
//     UTC day (at most 3) and, unless cached, the global daily budget. Both
//     are conditional updates, so concurrent requests cannot exceed them.
//     Requests refused in steps 1–2 are never counted.
//  5. Audit the prompts (before they are sent), ask every question on every
//     platform in parallel within the time budget, analyse the answers with
//     package detect, store the check (and cache it when every platform
//     answered).
//
// # Score and grade
//
// Each answer gets detect's visibility score (0–100: prominence, position,
// own domain cited, sentiment; "I have no information about X" is no
// mention). A platform's score is the weighted mean over the questions it
// answered — "best <category> tools" 0.5, "<brand> alternatives" 0.3,
// "what is <brand>" 0.2 — and the check's score the mean over the
// platforms that answered (failed and timed-out platforms do not drag it
// down; with none answered there is no grade). Grades: A 80–100, B 60–79,
// C 40–59, D 20–39, F 0–19.
package brandcheck
