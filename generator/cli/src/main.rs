//! `modelpages`: the command line over the modelpages build library.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use modelpages_serve::{serve_until_interrupted, ServeOptions, Terminal};
use modelpages_deploy::DeployOptions;
use modelpages_site::{build_site, check_models, BuildOptions, CheckOptions, SettingsSource, SiteSettings, SETTINGS_FILE};

mod notes;
mod progress;
mod snippets;

// A build allocates millions of small strings from two threads at once;
// mimalloc does that markedly cheaper than the system allocator (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "modelpages", version, about = "Prerender a browsable model-hub site from a folder of model records")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site from the model records.
    Build(BuildArgs),
    /// Build, serve the site on 127.0.0.1 and rebuild and reload open pages
    /// whenever a record, a site source or the settings change.
    Serve {
        #[command(flatten)]
        build: BuildArgs,
        /// Port on 127.0.0.1 (0 picks a free one).
        #[arg(long, default_value_t = 1111)]
        port: u16,
    },
    /// Print the usage examples of one model as JSON.
    Snippets {
        /// A model folder or its model.json.
        path: PathBuf,
        /// Read snippet templates from this folder instead of the built-in
        /// ones (for editing templates without rebuilding).
        #[arg(long)]
        templates: Option<PathBuf>,
        #[command(flatten)]
        inference: snippets::InferenceArgs,
        /// Settings file (router_url and hub_url are used); default
        /// `modelpages.toml` when it exists.
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Upload what the builds since the last deploy changed to a static
    /// host: a local folder, S3-compatible storage or a WebDAV server.
    Deploy(DeployArgs),
    /// Print the library catalogue as a JSON array.
    Libraries,
    /// Do everything `build` does except writing: load every record, make
    /// its examples and render its pages in memory, and report what a build
    /// would report.
    Check(CheckArgs),
    /// Write a synthetic corpus of realistic model folders (for scale tests).
    Synth {
        /// How many models to write.
        #[arg(long)]
        count: usize,
        /// Folder to write `<namespace>/<name>/` into; must be new or empty.
        #[arg(long)]
        out: PathBuf,
        /// The same seed always gives the same bytes.
        #[arg(long, default_value_t = modelpages_synth::DEFAULT_SEED)]
        seed: u64,
        /// Small records (id, task, library, tags, downloads, likes, date)
        /// and no cards: the same ids, for measuring listings at hub scale.
        #[arg(long)]
        minimal: bool,
        /// Instead of writing a corpus, apply day D of Hub changes to the
        /// one in --out (written with the same --count, --seed and
        /// --minimal, and the days before D): downloads and likes moved,
        /// cards edited, models added and removed.
        #[arg(long)]
        day: Option<u32>,
    },
}

#[derive(Args)]
struct BuildArgs {
    /// Folder of model records (`<namespace>/<name>/model.json`).
    #[arg(long, default_value = "models")]
    models: PathBuf,
    /// Output folder; replaced only when the new site is complete.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// Where the site will be served: `/`, `/hub/` or `https://hub.example/`
    /// (overrides `base_url` in the settings file; default `/`).
    #[arg(long)]
    base_url: Option<String>,
    /// Settings file (title, base_url, router_url, hub_url); default
    /// `modelpages.toml` when it exists.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Templates, styles and the bundled islands.
    #[arg(long, default_value = modelpages_site::DEFAULT_SITE_SOURCES)]
    site_src: PathBuf,
    /// Render every page, even those of models that did not change since the
    /// site in --out was built.
    #[arg(long)]
    full: bool,
    /// Look only at the models this file names (one `namespace/name`, or a
    /// path inside a model folder relative to --models, a line; `-` reads
    /// standard input) and trust every other model to be as the site in --out
    /// recorded it: for a sync job that knows what it wrote. A model added or
    /// removed makes the build look at every model anyway.
    #[arg(long, value_name = "FILE", conflicts_with = "full")]
    changed: Option<PathBuf>,
    /// Print every note about the models (examples left out and why); by
    /// default the first 20 and a count, since a hub yields thousands.
    #[arg(long)]
    all_notes: bool,
}

#[derive(Args)]
struct CheckArgs {
    /// Folder of model records (`<namespace>/<name>/model.json`).
    #[arg(long, default_value = "models")]
    models: PathBuf,
    /// Settings file, as for `build`; default `modelpages.toml` when it exists.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Templates, styles and the bundled islands, as for `build`.
    #[arg(long, default_value = modelpages_site::DEFAULT_SITE_SOURCES)]
    site_src: PathBuf,
    /// Print every note about the models, as for `build`.
    #[arg(long)]
    all_notes: bool,
}

#[derive(Args)]
struct DeployArgs {
    /// `file:///srv/www` (or a folder path), `s3://bucket/prefix` or
    /// `https://host/path/` (WebDAV). S3 reads AWS_ENDPOINT_URL, AWS_REGION,
    /// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; WebDAV reads
    /// MODELPAGES_DEPLOY_USER and MODELPAGES_DEPLOY_PASSWORD.
    destination: String,
    /// The built site to deploy.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// Print what would be uploaded and removed, and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Compare every file of the site with a listing of the destination
    /// instead of trusting the change set.
    #[arg(long)]
    full: bool,
    /// Refuse to remove more files than this from the destination.
    #[arg(long, default_value_t = 256)]
    max_deletes: usize,
    /// Settings file (its `[deploy]` table); default `modelpages.toml` when it exists.
    #[arg(long)]
    config: Option<PathBuf>,
}

fn main() -> ExitCode {
    no_huge_pages();
    match run(Cli::parse()) {
        Ok(code) => code,
        // A reader that stopped reading (`modelpages snippets ... | head`)
        // wanted no more: that is not a failure.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", describe(&err));
            ExitCode::FAILURE
        }
    }
}

/// Keeps this process off transparent huge pages. mimalloc asks for them
/// (`MADV_HUGEPAGE`) for its arenas, and on a machine whose memory is full
/// of page cache (a hub-scale site just written) each such fault first
/// compacts memory: at a million models that was a sixth of a one-model
/// rebuild's processor time, and turning them off took its wall time from
/// 10.9 to 9.2 s (median of four). Nothing here gains from huge pages: the
/// work is file lookups and small allocations.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory
    // of ours; failing (an old kernel) leaves things as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Tells mimalloc to keep the memory a build frees for its own next
/// allocations instead of handing it back to the system. By default it
/// hands freed pages back a second after they are freed, and at hub scale a
/// build frees and allocates again stage after stage, each of a second or
/// so: each page handed back was faulted in again, about a fifth of a
/// one-model rebuild's system time at a million models. A build is one run
/// that ends; `serve`, which runs on, keeps the default.
fn keep_freed_memory() {
    /// `mi_option_purge_delay`, by its place in mimalloc's `mi_option_t`
    /// (`libmimalloc-sys` names no constant for it).
    const PURGE_DELAY: std::ffi::c_int = 15;
    /// Its default in the mimalloc this links, in milliseconds.
    const DEFAULT_DELAY: std::ffi::c_long = 1000;
    unsafe extern "C" {
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // SAFETY: mimalloc (the global allocator, linked in) takes and gives
    // plain integers here, and reads the option each time it would purge.
    // Only its default is changed: a `MIMALLOC_PURGE_DELAY` set by the user,
    // or an option list that moved, is left as it is.
    unsafe {
        if mi_option_get(PURGE_DELAY) == DEFAULT_DELAY {
            mi_option_set(PURGE_DELAY, -1);
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().map(std::io::Error::kind)
            .or_else(|| cause.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind));
        io == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line. Library errors name their cause in
/// their own message already, so a cause whose text is there is not repeated.
fn describe(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Build(args) => {
            keep_freed_memory();
            build(args)
        }
        Command::Serve { build, port } => serve(build, port),
        Command::Snippets { path, templates, inference, config } => {
            let engine = snippets::engine(templates.as_deref())?;
            let settings = load_settings(config.as_deref())?.inference();
            inference.check_providers(&settings)?;
            print_json(&snippets::model_snippets_json(&engine, &path, &settings, &inference.options())?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Deploy(args) => deploy(args),
        Command::Libraries => {
            print_json(&snippets::catalogue_json())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check(args) => check(args),
        Command::Synth { count, out, seed, minimal, day } => {
            let shape = if minimal { modelpages_synth::Shape::Minimal } else { modelpages_synth::Shape::Full };
            if let Some(day) = day {
                let report = modelpages_synth::apply_day(&out, count, seed, day, shape)
                    .with_context(|| format!("cannot apply day {day} to the synthetic corpus in {}", out.display()))?;
                eprintln!(
                    "day {day}: {} of {} models' counts moved ({} likes), {} cards edited, {} added, {} removed in {:.2}s",
                    report.counts_moved,
                    report.before,
                    report.likes_moved,
                    report.cards_edited,
                    report.added.len(),
                    report.removed.len(),
                    report.seconds
                );
                return Ok(ExitCode::SUCCESS);
            }
            let report = modelpages_synth::write_shaped_corpus(&out, count, seed, shape)
                .with_context(|| format!("cannot write the synthetic corpus to {}", out.display()))?;
            eprintln!(
                "wrote {} synthetic models in {} namespaces to {} in {:.2}s",
                report.models,
                report.namespaces,
                out.display(),
                report.seconds
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `--config PATH` must exist; without it `modelpages.toml` is read if present.
fn load_settings(config: Option<&std::path::Path>) -> anyhow::Result<SiteSettings> {
    Ok(SettingsSource::new(config, None).load()?)
}

/// The preview prints to the terminal like `build` does.
struct Stderr;

impl Terminal for Stderr {
    fn line(&self, text: &str) {
        eprintln!("{text}");
    }
}

fn serve(args: BuildArgs, port: u16) -> anyhow::Result<ExitCode> {
    if args.changed.is_some() {
        anyhow::bail!("--changed is for `build`: the preview watches the models folder itself");
    }
    let options = ServeOptions {
        models_dir: args.models,
        out_dir: args.out,
        site_src: args.site_src,
        settings: SettingsSource::new(args.config.as_deref(), args.base_url),
        port,
        full_first_build: args.full,
    };
    // Settings that do not load are an error now, as for `build`; once
    // serving, a broken settings file is shown like a broken record.
    options.settings.load()?;
    serve_until_interrupted(options, std::sync::Arc::new(Stderr)).context("cannot start the preview")?;
    Ok(ExitCode::SUCCESS)
}

fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, value)?;
    writeln!(stdout)?;
    Ok(())
}

/// The model ids of a `--changed` file (`-`: standard input).
fn read_changed_list(path: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let ids = if path == std::path::Path::new("-") {
        modelpages_site::read_changed_list(std::io::stdin().lock()).context("changed list on standard input")?
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read the changed list {}", path.display()))?;
        modelpages_site::read_changed_list(file).with_context(|| format!("changed list {}", path.display()))?
    };
    Ok(ids)
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let mut settings = load_settings(args.config.as_deref())?;
    if let Some(base_url) = args.base_url {
        settings.base_url = base_url;
    }
    let options = BuildOptions {
        models_dir: args.models,
        out_dir: args.out,
        site_src: args.site_src,
        settings,
        settings_file: Some(args.config.unwrap_or_else(|| SETTINGS_FILE.into())),
        incremental: !args.full,
        changed: args.changed.as_deref().map(read_changed_list).transpose()?,
    };
    let report = build_site(&options, &progress::TerminalProgress::new("models"))
        .with_context(|| format!("build failed; {} was left as it was", options.out_dir.display()))?;
    notes::print_notes(&report.notes, args.all_notes);
    report_errors(report.errors.iter());
    notes::warn_if_no_models(&options.models_dir, report.built + report.errors.len());
    if !report.has_islands {
        eprintln!(
            "note: {} has no bundled islands; pages work but have no JavaScript (run `make site`)",
            options.site_src.display()
        );
    }
    eprintln!(
        "built {} models, {} failed in {:.2}s ({} rendered, {} unchanged)",
        report.built,
        report.errors.len(),
        report.seconds,
        report.rendered,
        report.built.saturating_sub(report.rendered),
    );
    Ok(exit_code(report.errors.is_empty()))
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = CheckOptions {
        settings: load_settings(args.config.as_deref())?,
        models_dir: args.models,
        site_src: args.site_src,
    };
    let report = check_models(&options).context("check failed")?;
    notes::print_notes(&report.notes, args.all_notes);
    report_errors(report.errors.iter());
    let checked = report.built + report.errors.len();
    notes::warn_if_no_models(&options.models_dir, checked);
    eprintln!("checked {checked} models, {} failed", report.errors.len());
    Ok(exit_code(report.errors.is_empty()))
}

fn deploy(args: DeployArgs) -> anyhow::Result<ExitCode> {
    let options = DeployOptions {
        settings: load_settings(args.config.as_deref())?.deploy,
        out_dir: args.out,
        destination: args.destination,
        dry_run: args.dry_run,
        full: args.full,
        max_deletes: args.max_deletes,
    };
    let report = modelpages_deploy::deploy(&options, &progress::TerminalProgress::new("files"))
        .with_context(|| format!("deploy of {} stopped", options.out_dir.display()))?;
    let plan = &report.plan;
    if let Some(why) = &plan.full {
        eprintln!("note: compared the whole site with the destination: {why}");
    }
    for skipped in &plan.skipped {
        eprintln!("note: {} is not deployed: a link, a dot file or another entry no build writes", modelpages_record::printable(skipped));
    }
    if let Some(first) = plan.left_alone.first() {
        eprintln!(
            "note: left alone {} files on the destination that the site lacks but no deploy of it sent there (first: {first}); remove them yourself if they are stale",
            plan.left_alone.len(),
            first = modelpages_record::printable(first)
        );
    }
    if !plan.kept.is_empty() {
        eprintln!("note: kept {} files the site lacks, as [deploy] keep says ({})", plan.kept.len(), plan.kept.join(", "));
    }
    if report.dry_run {
        let mut stdout = std::io::stdout().lock();
        for rel in plan.uploads() {
            writeln!(stdout, "upload {rel}")?;
        }
        for rel in &plan.removals {
            writeln!(stdout, "remove {rel}")?;
        }
        eprintln!(
            "dry run: would upload {} files and remove {} ({} unchanged) on {}; nothing was changed",
            plan.upload_count(),
            plan.removals.len(),
            plan.unchanged,
            report.destination
        );
        if let Some(refused) = &report.refused {
            eprintln!("error: {refused}");
            return Ok(ExitCode::FAILURE);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let resumed = if report.resumed > 0 { format!(", {} already sent by an interrupted deploy", report.resumed) } else { String::new() };
    eprintln!(
        "deployed to {}: uploaded {} files, removed {}{resumed} in {:.2}s",
        report.destination, report.uploaded, report.removed, report.seconds
    );
    Ok(ExitCode::SUCCESS)
}

fn report_errors<E: std::fmt::Display>(errors: impl Iterator<Item = E>) {
    let mut stderr = std::io::stderr().lock();
    for err in errors {
        let _ = writeln!(stderr, "error: {err}");
    }
}

fn exit_code(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
