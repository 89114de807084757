// Starts the fake gateway by hand, to try Parley without a real key:
//   npm run fake-gateway      (then, in another shell, the printed `npm start` line)
import { FakeGateway } from "./server";

const port = Number(process.env.PORT ?? 0);
const gateway = await new FakeGateway().start(port);
process.stdout.write(`${JSON.stringify({ baseUrl: gateway.baseUrl, authUrl: gateway.authUrl })}\n`);
process.stderr.write(
  `Fake gateway on ${gateway.url}. Start Parley against it with:\n` +
    `  APP_GATEWAY_BASE_URL=${gateway.baseUrl} APP_GATEWAY_AUTH_URL=${gateway.authUrl} npm start\n` +
    `and paste any key (for example sk-fake-key) under Settings, Providers. Models: fake/echo, fake/slow, fake/reasoner, …\n`,
);
const stop = () => void gateway.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
