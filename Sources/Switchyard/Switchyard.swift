// The kernel's types (stages, pipeline, transport, call context, request, response, errors and ids)
// are part of this module's interface: a user imports Switchyard alone.
@_exported public import SwitchyardCore
