package dev.sluice.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a YAML or JSON document with Jackson's streaming parser into {@link Node}s that remember their line and
 * column, so that every later error (not only a syntax error) can say where it is. A field given twice in one
 * object is an error here, naming both places.
 */
final class NodeReader {

    private static final JsonFactory JSON = new JsonFactory();
    private static final YAMLFactory YAML = new YAMLFactory();

    private final String source;
    private final JsonParser parser;

    private NodeReader(String source, JsonParser parser) {
        this.source = source;
        this.parser = parser;
    }

    static Node read(String text, String source, RuleFiles.Format format) throws RuleFileException {
        try (JsonParser p = (format == RuleFiles.Format.JSON ? JSON : YAML).createParser(text)) {
            NodeReader reader = new NodeReader(source, p);
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new RuleFileException(source, 1, 1, "", "the file is empty; it needs at least a 'default' rule");
            }
            Node root = reader.value("", place(p.currentTokenLocation()));
            if (p.nextToken() != null) {
                JsonLocation l = p.currentTokenLocation();
                throw new RuleFileException(source, l.getLineNr(), l.getColumnNr(), "",
                        "only one document is read; remove what follows the first");
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            int line = l == null ? 0 : Math.max(l.getLineNr(), 0);
            int column = l == null ? 0 : Math.max(l.getColumnNr(), 0);
            throw new RuleFileException(source, line, column, "", "not valid " + format + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new RuleFileException(source, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static int[] place(JsonLocation l) {
        return new int[] {Math.max(l.getLineNr(), 1), Math.max(l.getColumnNr(), 1)};
    }

    /** The value at the current token, placed at {@code at}. */
    private Node value(String path, int[] at) throws IOException, RuleFileException {
        JsonToken t = parser.currentToken();
        switch (t) {
            case START_OBJECT:
                return object(path, at);
            case START_ARRAY:
                return array(path, at);
            case VALUE_STRING:
                return scalar(Node.Kind.STRING, path, at);
            case VALUE_NUMBER_INT:
                return scalar(Node.Kind.INTEGER, path, at);
            case VALUE_NUMBER_FLOAT:
                return scalar(Node.Kind.DECIMAL, path, at);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return scalar(Node.Kind.BOOLEAN, path, at);
            case VALUE_NULL:
                return scalar(Node.Kind.NULL, path, at);
            default:
                throw new RuleFileException(source, at[0], at[1], path, "unexpected " + t);
        }
    }

    private Node scalar(Node.Kind kind, String path, int[] at) throws IOException {
        return new Node(kind, source, path, at[0], at[1], parser.getText(), null, null);
    }

    private Node object(String path, int[] at) throws IOException, RuleFileException {
        Map<String, Node> fields = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            int[] nameAt = place(parser.currentTokenLocation());
            String childPath = path.isEmpty() ? name : path + "." + name;
            Node first = fields.get(name);
            if (first != null) {
                throw new RuleFileException(source, nameAt[0], nameAt[1], childPath,
                        "given twice (first at line " + first.line + ")");
            }
            parser.nextToken();
            fields.put(name, value(childPath, nameAt));
        }
        return new Node(Node.Kind.OBJECT, source, path, at[0], at[1], null, fields, null);
    }

    private Node array(String path, int[] at) throws IOException, RuleFileException {
        List<Node> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(value(path + "[" + items.size() + "]", place(parser.currentTokenLocation())));
        }
        return new Node(Node.Kind.ARRAY, source, path, at[0], at[1], null, null, items);
    }
}
