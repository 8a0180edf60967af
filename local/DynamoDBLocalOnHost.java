import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local bound to one interface. The jar has no host flag (see `-help`): its Jetty server listens on every
 * interface. This builds the server exactly as the jar's own main does, from the same flags, then sets the host on
 * its connector before starting it. Run by local/dynamodb.ts with Java's single-file source launcher:
 *   java -cp DynamoDBLocal.jar DynamoDBLocalOnHost.java <host> [DynamoDB Local flags...]
 */
public class DynamoDBLocalOnHost {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) throw new IllegalArgumentException("usage: DynamoDBLocalOnHost <host> [flags...]");
    String host = args[0];
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    // The Jetty server is a private field with no accessor; the classpath is unnamed-module, so reflection may read it.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Connector[] connectors = ((Server) field.get(proxy)).getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost(host);
    proxy.start();
  }
}
