import KDBXXML

/// The XML attribute type of `KDBXXML`, re-exported for model properties that keep unknown attributes.
package typealias KDBXXMLAttribute = XMLAttribute
/// The XML node type of `KDBXXML`, re-exported for model properties that keep unknown nodes.
package typealias KDBXXMLNode = XMLNode
