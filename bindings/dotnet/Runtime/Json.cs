// A reader of the JSON the engine writes (views, events, options), so that events arrive
// typed without a JSON package: .NET Standard 2.0 has none, and Unity and Godot each bring
// their own. Objects become Dictionary<string, object> in key order, arrays List<object>,
// numbers long (or double with a fraction or exponent), and true, false, null as such.
// What it cannot read throws FormatException naming the offset.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Diabolo
{
    /// <summary>Reads JSON text into dictionaries, lists, strings, numbers, booleans and null.</summary>
    /// <example><code>
    /// var view = (Dictionary&lt;string, object&gt;)Json.Parse(state.Observation(0));
    /// long round = (long)view["round"];
    /// </code></example>
    public static class Json
    {
        private const int MaxDepth = 64;

        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException(nameof(text));
            int at = 0;
            var value = Value(text, ref at, 0);
            Space(text, ref at);
            if (at != text.Length) throw Error(text, at, "text after the value");
            return value;
        }

        private static FormatException Error(string text, int at, string what)
        {
            return new FormatException("JSON: " + what + " at offset " + at);
        }

        private static void Space(string text, ref int at)
        {
            while (at < text.Length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
                ++at;
        }

        private static object Value(string text, ref int at, int depth)
        {
            if (depth > MaxDepth) throw Error(text, at, "nesting deeper than " + MaxDepth);
            Space(text, ref at);
            if (at >= text.Length) throw Error(text, at, "a value missing");
            char c = text[at];
            if (c == '{') return Object(text, ref at, depth);
            if (c == '[') return Array(text, ref at, depth);
            if (c == '"') return String(text, ref at);
            if (Word(text, ref at, "true")) return true;
            if (Word(text, ref at, "false")) return false;
            if (Word(text, ref at, "null")) return null;
            return Number(text, ref at);
        }

        private static bool Word(string text, ref int at, string word)
        {
            if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) return false;
            at += word.Length;
            return true;
        }

        private static Dictionary<string, object> Object(string text, ref int at, int depth)
        {
            var result = new Dictionary<string, object>();
            ++at;
            Space(text, ref at);
            if (at < text.Length && text[at] == '}')
            {
                ++at;
                return result;
            }
            while (true)
            {
                Space(text, ref at);
                if (at >= text.Length || text[at] != '"') throw Error(text, at, "a key missing");
                string key = String(text, ref at);
                Space(text, ref at);
                if (at >= text.Length || text[at] != ':') throw Error(text, at, "':' missing");
                ++at;
                result[key] = Value(text, ref at, depth + 1);
                Space(text, ref at);
                if (at < text.Length && text[at] == ',')
                {
                    ++at;
                    continue;
                }
                if (at < text.Length && text[at] == '}')
                {
                    ++at;
                    return result;
                }
                throw Error(text, at, "',' or '}' missing");
            }
        }

        private static List<object> Array(string text, ref int at, int depth)
        {
            var result = new List<object>();
            ++at;
            Space(text, ref at);
            if (at < text.Length && text[at] == ']')
            {
                ++at;
                return result;
            }
            while (true)
            {
                result.Add(Value(text, ref at, depth + 1));
                Space(text, ref at);
                if (at < text.Length && text[at] == ',')
                {
                    ++at;
                    continue;
                }
                if (at < text.Length && text[at] == ']')
                {
                    ++at;
                    return result;
                }
                throw Error(text, at, "',' or ']' missing");
            }
        }

        private static string String(string text, ref int at)
        {
            var result = new StringBuilder();
            ++at;
            while (at < text.Length)
            {
                char c = text[at++];
                if (c == '"') return result.ToString();
                if (c < ' ') throw Error(text, at - 1, "a control character in a string");
                if (c != '\\')
                {
                    result.Append(c);
                    continue;
                }
                if (at >= text.Length) break;
                char escaped = text[at++];
                switch (escaped)
                {
                    case '"': result.Append('"'); break;
                    case '\\': result.Append('\\'); break;
                    case '/': result.Append('/'); break;
                    case 'b': result.Append('\b'); break;
                    case 'f': result.Append('\f'); break;
                    case 'n': result.Append('\n'); break;
                    case 'r': result.Append('\r'); break;
                    case 't': result.Append('\t'); break;
                    case 'u':
                        int code;
                        if (at + 4 > text.Length || !int.TryParse(text.Substring(at, 4), NumberStyles.AllowHexSpecifier,
                                CultureInfo.InvariantCulture, out code))
                            throw Error(text, at, "a bad \\u escape");
                        result.Append((char)code);
                        at += 4;
                        break;
                    default: throw Error(text, at - 1, "a bad escape");
                }
            }
            throw Error(text, at, "an unterminated string");
        }

        private static object Number(string text, ref int at)
        {
            int start = at;
            if (at < text.Length && text[at] == '-') ++at;
            bool fraction = false;
            while (at < text.Length)
            {
                char c = text[at];
                if (c >= '0' && c <= '9') ++at;
                else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')
                {
                    fraction = true;
                    ++at;
                }
                else break;
            }
            string number = text.Substring(start, at - start);
            long integer;
            if (!fraction && long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integer))
                return integer;
            double real;
            if (number.Length > 0 && double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out real))
                return real;
            throw Error(text, start, "not a value");
        }
    }
}
