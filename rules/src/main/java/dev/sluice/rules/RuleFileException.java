package dev.sluice.rules;

/**
 * A rule file that cannot be used, and why: the file, the line and column (1-based; 0 when the problem has no
 * place, such as a file that cannot be read), the field's path (such as {@code rules[2].limits[0].window}; empty
 * for the whole document) and the problem, with the allowed values. The message reads
 * {@code file:line:column: field: problem}.
 */
public final class RuleFileException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;
    private final String field;
    private final String problem;

    RuleFileException(String file, int line, int column, String field, String problem) {
        super(message(file, line, column, field, problem));
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field;
        this.problem = problem;
    }

    RuleFileException(String file, String problem, Throwable cause) {
        super(message(file, 0, 0, "", problem), cause);
        this.file = file;
        this.line = 0;
        this.column = 0;
        this.field = "";
        this.problem = problem;
    }

    private static String message(String file, int line, int column, String field, String problem) {
        return file + (line > 0 ? ":" + line + ":" + column : "") + ": " + (field.isEmpty() ? "" : field + ": ")
                + problem;
    }

    /** The file (as it was named to the loader). */
    public String file() {
        return file;
    }

    /** The line of the problem, from 1; 0 if it has no place in the file. */
    public int line() {
        return line;
    }

    /** The column of the problem, from 1; 0 if it has no place in the file. */
    public int column() {
        return column;
    }

    /** The path of the field, such as {@code rules[2].window}; empty for the document as a whole. */
    public String field() {
        return field;
    }

    /** What is wrong, with the allowed values. */
    public String problem() {
        return problem;
    }
}
