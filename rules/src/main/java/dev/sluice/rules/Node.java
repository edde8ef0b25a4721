package dev.sluice.rules;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One value of a rule file with where it appears: a field's node is placed at its name, an array item at its
 * first token. Objects keep their fields in file order.
 */
final class Node {

    enum Kind {
        OBJECT("an object"), ARRAY("a list"), STRING("a string"), INTEGER("an integer"), DECIMAL("a decimal number"),
        BOOLEAN("true or false"), NULL("nothing (null)");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    final Kind kind;
    final String source;
    final String path;
    final int line;
    final int column;
    /** The scalar's text as written (null for objects and lists). */
    final String text;
    final Map<String, Node> fields;
    final List<Node> items;

    Node(Kind kind, String source, String path, int line, int column, String text, Map<String, Node> fields,
            List<Node> items) {
        this.kind = kind;
        this.source = source;
        this.path = path;
        this.line = line;
        this.column = column;
        this.text = text;
        this.fields = fields == null ? Collections.emptyMap() : Collections.unmodifiableMap(fields);
        this.items = items == null ? Collections.emptyList() : Collections.unmodifiableList(items);
    }

    /** An error placed at this node. */
    RuleFileException error(String problem) {
        return new RuleFileException(source, line, column, path, problem);
    }

    /** What the node is, for "expected X, was Y" messages: its kind and, for a scalar, its text. */
    String described() {
        return text == null || kind == Kind.NULL ? kind.description : kind.description + " '" + text + "'";
    }

    Node field(String name) {
        return fields.get(name);
    }

    boolean has(String name) {
        return fields.containsKey(name);
    }

    /** The path of a child field. */
    String child(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
