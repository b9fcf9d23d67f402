import PlaygroundPages
import PlaygroundSupport

// Runs every playground page in order against the embedded local server (or `--base-url URL` for httpbin-style
// requests). Exits non-zero if any check on any page did not hold.
await PlaygroundRunner.main(allPlaygroundPages)
