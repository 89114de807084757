// Starts the fake gateway by hand, to try Parley without a real key. It runs in the foreground
// until Ctrl+C, on 127.0.0.1:4318 (PORT=… picks another port, PORT=0 a free one):
//   npm run fake-gateway      (then, in another terminal, the printed `npm start` line)
// `-- --self-hosted` makes it speak like a self-hosted server: bare model list, no cost, usage only
// when asked, no credits, `{detail}` error bodies.
import { FakeGateway } from "./server";

const DEFAULT_FAKE_PORT = 4318;

const port = Number(process.env.PORT ?? DEFAULT_FAKE_PORT);
const selfHosted = process.argv.includes("--self-hosted");
const gateway = new FakeGateway();
if (selfHosted)
  gateway.dialect = { bareModels: true, noCost: true, usageOnlyWhenAsked: true, noCredits: true, errorBody: "detail" };
try {
  await gateway.start(port);
} catch (error) {
  process.stderr.write(
    `The fake gateway cannot listen on 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code}); try PORT=0 npm run fake-gateway\n`,
  );
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ baseUrl: gateway.baseUrl, authUrl: gateway.authUrl })}\n`);
process.stderr.write(
  `Fake gateway${selfHosted ? " (speaking like a self-hosted server)" : ""} on ${gateway.url}; it runs until Ctrl+C. In another terminal, start Parley against it:\n` +
    `  APP_GATEWAY_BASE_URL=${gateway.baseUrl} APP_GATEWAY_AUTH_URL=${gateway.authUrl} npm start\n` +
    `then paste any key (for example sk-fake-key) under Settings, Providers. Models: fake/echo, fake/slow, fake/reasoner, fake/short, fake/tools, fake/agent-long (a long session), …; for dictation, openai/whisper-1 or google/gemini-2.5-flash (both answer "hello from the fake microphone").\n`,
);
const stop = () => void gateway.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
