extension StageID {
    /// The pipeline's redirect handling, as errors name it: not a stage, but the place where a
    /// service's ``RedirectPolicy`` refused a redirect (``SwitchyardError/Code/redirect``).
    public static let redirects: StageID = "redirects"
}
