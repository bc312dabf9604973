// Written by `npm run gen:scenarios` (test/helpers/parsed-built-ins.ts); never edited by hand.
// The value `yaml` parses from each scenario file the package ships, as JSON, by the SHA-256 of
// its text (scenario-yaml.ts).
export const PARSED_BUILT_INS: Readonly<Record<string, string>> = {
  // scenarios/flaky-network.yaml
  "eda7d05cb27f647029edb25a23c2a695f8424132177672d48fddf6fcda30f41e": "{\"name\":\"flaky-network\",\"description\":\"The first request of each operation gets a connection reset; later ones answer normally (test your retries).\",\"rules\":[{\"match\":{\"operation\":\"createLink\"},\"fault\":\"connection-reset\",\"times\":1},{\"match\":{\"operation\":\"updateLink\"},\"fault\":\"connection-reset\",\"times\":1},{\"match\":{\"operation\":\"deleteLink\"},\"fault\":\"connection-reset\",\"times\":1}]}",
  // scenarios/invalid-request.yaml
  "1c308e28797aa4b871b86c70b559823eb70fde8a906ec82c2ef74fa86377ccb8": "{\"name\":\"invalid-request\",\"description\":\"Create and update answer 400 with an Error object (delete documents no 400, so it answers normally).\",\"rules\":[{\"match\":{\"operation\":[\"createLink\",\"updateLink\"]},\"error\":\"invalid-request\"}]}",
  // scenarios/link-limit-reached.yaml
  "d17753fa1198821d0f8aa5fd6f98a7af6fd1dfa49a78aa2097d2c354d1da7e4f": "{\"name\":\"link-limit-reached\",\"description\":\"Create answers 400 with code LINK_LIMIT_REACHED; update and delete answer normally.\",\"rules\":[{\"match\":{\"operation\":\"createLink\"},\"error\":\"link-limit-reached\"}]}",
  // scenarios/not-found.yaml
  "981d7f1fb9bcd5de4cf143e721dc1df1331e8882c8c9de5c3ba508ff660b9896": "{\"name\":\"not-found\",\"description\":\"Every operation answers 404 with an Error object, as for an unknown domain, tag or link.\",\"rules\":[{\"match\":{\"operation\":\"*\"},\"error\":\"not-found\"}]}",
  // scenarios/slow.yaml
  "240f991e02ef0fd3d1282a77cca476a115ba97ed9e413a84a5aaaf71fc8806b2": "{\"name\":\"slow\",\"description\":\"Every operation answers normally (stateful) after 800 to 1500 ms, to test spinners and time-outs.\",\"rules\":[{\"match\":{\"operation\":\"*\"},\"delay\":{\"min\":800,\"max\":1500}}]}",
  // scenarios/unauthorized.yaml
  "82eda14181593cdfed9775ae2a33e0c7b87a223cf4b6fe0b9038485db2d47af2": "{\"name\":\"unauthorized\",\"description\":\"Every operation answers 401, even with a valid API key (test your client's sign-in / bad-key path).\",\"rules\":[{\"match\":{\"operation\":\"*\"},\"error\":\"unauthorized\"}]}",
};
