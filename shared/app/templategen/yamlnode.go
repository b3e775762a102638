package main

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// value is a CloudFormation value as package app writes them: "!Ref X",
// "!GetAtt X.Y", "!Sub text" or a plain string.
func value(v string) *yaml.Node {
	for _, tag := range []string{"!Ref", "!GetAtt", "!Sub"} {
		if rest, ok := strings.CutPrefix(v, tag+" "); ok {
			n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: rest}
			if tag == "!Sub" {
				n.Style = yaml.DoubleQuotedStyle
			}
			return n
		}
	}
	return str(v)
}

func ref(name string) *yaml.Node { return value("!Ref " + name) }

func getAtt(nameAttr string) *yaml.Node { return value("!GetAtt " + nameAttr) }

func sub(text string) *yaml.Node { return value("!Sub " + text) }

// ifThen is !If [condition, a, b].
func ifThen(cond string, a, b *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!If", Style: yaml.FlowStyle, Content: []*yaml.Node{str(cond), a, b}}
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func quoted(s string) *yaml.Node {
	n := str(s)
	n.Style = yaml.DoubleQuotedStyle
	if strings.Contains(s, `"`) {
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

func integer(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolean(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
}

func flow(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: items}
}

func block(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: items}
}

// strs is a flow sequence of plain strings.
func strs(ss ...string) *yaml.Node {
	n := flow()
	for _, s := range ss {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// mapping builds a mapping of alternating string keys and node values.
func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		add(m, kv[i].(string), kv[i+1].(*yaml.Node))
	}
	return m
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

// get is the value of key in mapping m (nil when absent).
func get(m *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if m == nil || m.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == k {
				next = m.Content[i+1]
			}
		}
		m = next
	}
	return m
}

// oneOrMany is a single value, or a sequence of several.
func oneOrMany(ns []*yaml.Node) *yaml.Node {
	if len(ns) == 1 {
		return ns[0]
	}
	return block(ns...)
}
